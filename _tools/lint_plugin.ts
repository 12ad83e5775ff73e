/**
 * The house rules that `deno lint` checks on every file: the layer table of
 * DESIGN.md, and no console output from the quiet layers.
 *
 * @module
 */
import { layerOf, layerViolation, QUIET_LAYERS } from "./layers.ts";

function sourceOf(node: { source: unknown }): string | null {
  const s = node.source as { type?: string; value?: unknown } | null;
  return s && s.type === "Literal" && typeof s.value === "string" ? s.value : null;
}

/** Rules: `sim-datalogger/layers`, `sim-datalogger/no-console`. */
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
  },
};

export default plugin;
