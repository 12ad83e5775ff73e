/**
 * The live page's QR code on the dashboard: with `--lan`, `start` and
 * `demo` print it before the dashboard takes the screen, which then covers
 * it, so the dashboard draws it again, over the view, on start and on
 * {@linkcode QR_KEY}, until dismissed. The code's lines are the command's
 * (src/cli/qr_text.ts): the dashboard only draws them.
 *
 * @module
 */
import { Box, Text } from "ink";

/** The key that shows or hides the QR code. */
export const QR_KEY = "p";

/** The live page's address on the network, and its QR code as lines of text. */
export interface LivePageQr {
  url: string;
  /** The code, one string a row, as src/cli/qr_text.ts draws it. */
  lines: readonly string[];
  /** Shown when the dashboard starts (true with `--lan`), until dismissed. */
  open: boolean;
}

/** The words under the code: how to use it and how to close it. */
export const QR_CLOSE_HINT = `${QR_KEY} or Esc hides it (${QR_KEY} shows it again)`;

/** The address, the code, and how to close it. */
export function QrOverlay({ qr }: { qr: LivePageQr }) {
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        {`Live page: ${qr.url}  (scan with a phone on the same Wi-Fi)`}
      </Text>
      {qr.lines.map((line, i) => <Text key={i}>{line}</Text>)}
      <Text color="gray" wrap="truncate">{QR_CLOSE_HINT}</Text>
    </Box>
  );
}
