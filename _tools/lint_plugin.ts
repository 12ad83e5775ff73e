/**
 * The house rules that `deno lint` checks on every file: the layer table of
 * docs/architecture.md, no console output from the quiet layers, and no function in
 * `src/` longer than {@linkcode MAX_FUNCTION_LINES} lines, the pages'
 * scripts in `src/web/` included (their vendored libraries aside).
 *
 * @module
 */
import { isPageScript, layerOf, layerViolation, QUIET_LAYERS } from "./layers.ts";

function sourceOf(node: { source: unknown }): string | null {
  const s = node.source as { type?: string; value?: unknown } | null;
  return s && s.type === "Literal" && typeof s.value === "string" ? s.value : null;
}

/**
 * The longest a function in `src/` may be, in lines from its first to its
 * last (nested functions count in the one that holds them). Generated data
 * is data, not functions, so it is never judged.
 */
export const MAX_FUNCTION_LINES = 120;

/** `src/...` of an absolute path inside `src/`. */
function srcPath(path: string): string {
  const unix = path.replaceAll("\\", "/");
  return unix.slice(unix.lastIndexOf("/src/") + 1);
}

/** The name a function goes by: its own, or the variable or property it is assigned to. */
function functionName(node: Deno.lint.Node): string {
  if ("id" in node && node.id && node.id.type === "Identifier") return node.id.name;
  const parent = (node as { parent?: Deno.lint.Node }).parent;
  if (parent?.type === "VariableDeclarator" && parent.id.type === "Identifier") {
    return parent.id.name;
  }
  if ((parent?.type === "Property" || parent?.type === "MethodDefinition") && parent.key) {
    const key = parent.key as { type: string; name?: string };
    if (key.type === "Identifier" && key.name) return key.name;
  }
  return "(anonymous)";
}

/** How many lines `text` spans from offset `from` to offset `to`. */
function linesBetween(text: string, from: number, to: number): number {
  let lines = 1;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) lines++;
  return lines;
}

/** Rules: `sim-datalogger/layers`, `sim-datalogger/no-console`, `sim-datalogger/function-length`. */
const plugin: Deno.lint.Plugin = {
  name: "sim-datalogger",
  rules: {
    layers: {
      create(context) {
        const check = (node: Deno.lint.Node & { source: unknown }) => {
          const specifier = sourceOf(node);
          if (specifier === null) return;
          const why = layerViolation(context.filename, specifier);
          if (why) context.report({ node, message: why });
        };
        return {
          ImportDeclaration: check,
          ExportNamedDeclaration(node) {
            if (node.source) check(node);
          },
          ExportAllDeclaration: check,
          ImportExpression: check,
        };
      },
    },
    "no-console": {
      create(context) {
        const layer = layerOf(context.filename);
        if (layer === null || !QUIET_LAYERS.includes(layer)) return {};
        return {
          MemberExpression(node) {
            if (node.object.type === "Identifier" && node.object.name === "console") {
              context.report({
                node,
                message: `src/${layer} does not write to the console: ` +
                  "report through the app's log port or a bus event",
              });
            }
          },
        };
      },
    },
    "function-length": {
      create(context) {
        if (layerOf(context.filename) === null && !isPageScript(context.filename)) return {};
        const check = (node: Deno.lint.Node) => {
          const [from, to] = node.range;
          const lines = linesBetween(context.sourceCode.text, from, to);
          if (lines <= MAX_FUNCTION_LINES) return;
          const key = `${srcPath(context.filename)} ${functionName(node)}`;
          context.report({
            node,
            message: `${key} is ${lines} lines; at most ${MAX_FUNCTION_LINES} in src/: ` +
              "split it into named parts",
          });
        };
        return {
          FunctionDeclaration: check,
          FunctionExpression: check,
          ArrowFunctionExpression: check,
        };
      },
    },
  },
};

export default plugin;
