/**
 * A QR code for the terminal, so a phone's camera opens the live page
 * without typing its address. Encoding is qrcode-generator's (npm, no
 * dependencies, works offline); drawing uses half blocks, two modules a
 * character, with the quiet zone the standard asks for.
 *
 * @module
 */
import qrcode from "qrcode-generator";

/** Modules of quiet zone around the code. */
const QUIET = 2;

/**
 * `text` as a QR code (error correction L, the smallest version that holds
 * it) in lines of `█`, `▀`, `▄` and spaces, dark modules drawn as blank on
 * a light frame so it scans on a dark terminal. Every line has the same
 * length: the module count plus the quiet zone on both sides.
 */
export function qrLines(text: string): string[] {
  const qr = qrcode(0, "L");
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  // Light (true) outside the code and on its light modules.
  const light = (r: number, c: number) => r < 0 || c < 0 || r >= n || c >= n || !qr.isDark(r, c);
  const lines: string[] = [];
  for (let r = -QUIET; r < n + QUIET; r += 2) {
    let line = "";
    for (let c = -QUIET; c < n + QUIET; c++) {
      const top = light(r, c);
      const bottom = r + 1 < n + QUIET ? light(r + 1, c) : false;
      line += top && bottom ? "█" : top ? "▀" : bottom ? "▄" : " ";
    }
    lines.push(line);
  }
  return lines;
}
