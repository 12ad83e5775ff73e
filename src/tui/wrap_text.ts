/**
 * Breaking a message into lines of a terminal's width, so that what matters
 * at its end (the file name of `wrote /a/long/folder/file.json`) is not cut
 * off. Lines break after the last `/` or space past the line's first
 * third, else at the width.
 *
 * @module
 */

/**
 * `text` in lines of at most `width` characters, at most `maxLines` of
 * them (the last ends with `…` when text remains); `[""]` for empty text.
 */
export function wrapText(text: string, width: number, maxLines: number): string[] {
  const chars = [...text];
  if (chars.length === 0 || width <= 0 || maxLines <= 0) return [""];
  const lines: string[] = [];
  let at = 0;
  while (at < chars.length) {
    if (lines.length === maxLines - 1 && chars.length - at > width) {
      lines.push(chars.slice(at, at + width - 1).join("") + "…");
      return lines;
    }
    let end = Math.min(chars.length, at + width);
    if (end < chars.length) {
      // Break after the last separator past the line's first third, if there is one.
      for (let k = end; k > at + Math.floor(width / 3); k--) {
        if (chars[k - 1] === "/" || chars[k - 1] === " ") {
          end = k;
          break;
        }
      }
    }
    lines.push(chars.slice(at, end).join("").trimEnd());
    at = end;
  }
  return lines;
}
