/**
 * The help overlay: the keys that work everywhere, then the current view's
 * own. Listing one view at a time keeps the overlay inside 80x24 however
 * many views there are.
 *
 * @module
 */
import { Box, Text } from "ink";
import type { KeyHelp, ViewDef } from "./view_types.ts";
import { fit } from "./format.ts";

/** Props of {@linkcode Help}. */
export interface HelpProps {
  views: readonly ViewDef[];
  /** Keys of the root, listed after the view numbers. */
  globalKeys: readonly KeyHelp[];
  /** The view whose keys are listed. */
  current: ViewDef;
}

/** Lists the root's keys (with one per view), then the current view's own. */
export function Help({ views, globalKeys, current }: HelpProps) {
  const global: KeyHelp[] = [
    ...views.map((v) => ({ key: v.key, action: `${v.title} view` })),
    ...globalKeys,
  ];
  return (
    <Box flexDirection="column">
      <Text bold>Keys</Text>
      <KeyList title="Everywhere" keys={global} />
      <KeyList title={`${current.title} view`} keys={current.keys} />
      {views.length > 1
        ? <Text color="gray">Each view lists its own keys here: open it, then press ?</Text>
        : null}
    </Box>
  );
}

function KeyList({ title, keys }: { title: string; keys: readonly KeyHelp[] }) {
  return (
    <Box flexDirection="column">
      <Text color="cyan">{title}</Text>
      {keys.length === 0
        ? (
          <Box paddingLeft={2}>
            <Text color="gray">no keys of its own</Text>
          </Box>
        )
        : keys.map((k) => (
          <Text key={k.key} wrap="truncate">{`  ${fit(k.key, 7)} ${k.action}`}</Text>
        ))}
    </Box>
  );
}
