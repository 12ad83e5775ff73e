/**
 * The layer table of docs/architecture.md, as data: which folder of `src/` may import
 * which. The lint plugin and its tests read it from here, so the rule and
 * the document cannot drift apart silently.
 *
 * @module
 */

/** The folders of `src/` that form layers. */
export type Layer = "core" | "storage" | "app" | "capture" | "server" | "tui" | "cli";

/** For each layer, the layers its modules may import (itself included). */
export const ALLOWED_IMPORTS: Readonly<Record<Layer, readonly Layer[]>> = {
  core: ["core"],
  storage: ["core", "storage"],
  app: ["core", "storage", "app"],
  capture: ["core", "app", "capture"],
  server: ["core", "app", "capture", "server"],
  tui: ["core", "app", "tui"],
  cli: ["core", "storage", "app", "capture", "server", "tui", "cli"],
};

/** Layers whose modules must not write to the console (a logger port or a bus event instead). */
export const QUIET_LAYERS: readonly Layer[] = ["core", "storage", "app"];

const LAYER_OF = /\/src\/(core|storage|app|capture|server|tui|cli)\//;

const PAGE_SCRIPT = /\/src\/web\/(?!vendor\/)[^/]+\.js$/;

/**
 * Whether `path` is one of the browser pages' own scripts (`src/web/*.js`),
 * outside the layers but held to the same function length; the vendored
 * libraries under `src/web/vendor/` are someone else's code and never are.
 */
export function isPageScript(path: string): boolean {
  return PAGE_SCRIPT.test(path.replaceAll("\\", "/"));
}

/** The layer a file belongs to, from its path, or null outside `src/`'s layers. */
export function layerOf(path: string): Layer | null {
  const m = LAYER_OF.exec(path.replaceAll("\\", "/"));
  return m ? m[1] as Layer : null;
}

/**
 * Why `from` may not import `specifier`, or null when it may. Only relative
 * specifiers are judged: npm and node modules are no layer.
 */
export function layerViolation(from: string, specifier: string): string | null {
  const source = layerOf(from);
  if (source === null || !specifier.startsWith(".")) return null;
  const target = layerOf(new URL(specifier, `file://${from.replaceAll("\\", "/")}`).pathname);
  if (target === null) {
    return `src/${source} may import only from src/ (${specifier} is outside it)`;
  }
  if (ALLOWED_IMPORTS[source].includes(target)) return null;
  return `src/${source} may not import src/${target} (${specifier}); ` +
    `it may import ${ALLOWED_IMPORTS[source].map((l) => `src/${l}`).join(", ")}`;
}
