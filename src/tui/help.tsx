/**
 * The help overlay: every key of every view.
 *
 * @module
 */
import { Box, Text } from "ink";
import type { KeyHelp, ViewDef } from "./view_types.ts";
import { fit } from "./format.ts";

/** Props of {@linkcode Help}. */
export interface HelpProps {
  views: readonly ViewDef[];
  /** Keys of the root, listed first. */
  globalKeys: readonly KeyHelp[];
}

/** Lists the keys: the root's (with one per view), then each view's own. */
export function Help({ views, globalKeys }: HelpProps) {
  const global: KeyHelp[] = [
    ...views.map((v) => ({ key: v.key, action: `${v.title} view` })),
    ...globalKeys,
  ];
  return (
    <Box flexDirection="column">
      <Text bold>Keys</Text>
      <KeyList title="Everywhere" keys={global} />
      {views.map((v) => <KeyList key={v.id} title={v.title} keys={v.keys} />)}
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
