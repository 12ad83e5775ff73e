/**
 * Writes the installed app's icons (src/web/icons/*.png) from the pages'
 * favicon (src/web/favicon.svg) with resvg, so the home-screen icon is the
 * tab's icon: 192 and 512 px as drawn (`purpose: any`), and 192 and 512 px
 * "maskable" ones whose drawing sits inside the central 80 % circle a
 * launcher may crop to, on a full-bleed ground. The PNGs are committed and
 * served as files: rendering them at each start would load resvg's wasm into
 * the logger (and into the compiled binary) for pictures that change only
 * when the favicon does. Run it after changing the favicon:
 * `deno run -A scripts/gen_icons.ts`.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { initWasm, Resvg } from "@resvg/resvg-wasm";

/** The icons written: file name under src/web/icons/, size in px, maskable or not. */
export const ICONS = [
  { file: "icon-192.png", size: 192, maskable: false },
  { file: "icon-512.png", size: 512, maskable: false },
  { file: "icon-maskable-192.png", size: 192, maskable: true },
  { file: "icon-maskable-512.png", size: 512, maskable: true },
] as const;

/** The favicon's ground colour, which the maskable icon's full-bleed ground repeats. */
const GROUND = "#111";
/** The maskable drawing's scale: its 32-unit square fits the 80 % safe circle with a margin. */
const SAFE_SCALE = 0.7;

/**
 * The SVG text of the maskable icon: `favicon` (an `<svg viewBox="0 0 32 32">`)
 * shrunk about the centre onto a square ground with no rounded corners.
 */
export function maskableSvg(favicon: string): string {
  const inner = favicon.replace(/^[\s\S]*?<svg[^>]*>/, "").replace(/<\/svg>\s*$/, "");
  const shift = (32 * (1 - SAFE_SCALE)) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
    `<rect width="32" height="32" fill="${GROUND}"/>` +
    `<g transform="translate(${shift} ${shift}) scale(${SAFE_SCALE})">${inner}</g></svg>`;
}

if (import.meta.main) {
  await initWasm(
    readFileSync(fileURLToPath(import.meta.resolve("@resvg/resvg-wasm/index_bg.wasm"))),
  );
  const web = new URL("../src/web/", import.meta.url);
  const favicon = await Deno.readTextFile(new URL("favicon.svg", web));
  await Deno.mkdir(new URL("icons/", web), { recursive: true });
  for (const { file, size, maskable } of ICONS) {
    const svg = maskable ? maskableSvg(favicon) : favicon;
    const png = new Resvg(svg, { fitTo: { mode: "width", value: size } }).render().asPng();
    await Deno.writeFile(new URL(`icons/${file}`, web), png);
    console.log(`wrote src/web/icons/${file} (${size} px, ${png.length} bytes)`);
  }
}
