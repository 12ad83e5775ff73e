/**
 * The tracks view: the stored track bundles with their coverage (a closed
 * side's share of the lap; an open side only says `open`, and under the
 * list the metres surveyed: its percentage would be of the stretch found,
 * not of a lap), runs, sources and official match, and the actions on
 * them: confirm the
 * suggested official match, export to a file, import from a file (with a
 * progress bar), and name unlabelled sessions from the known circuits.
 *
 * @module
 */
import { Box, Text } from "ink";
import type { BundleListItem } from "../app/bundles/bundles.ts";
import type { OfficialSuggestionResult } from "../app/bundles/official.ts";
import type { KeyHelp, ViewProps } from "./view_types.ts";
import { ProgressLine } from "./import_progress_line.tsx";
import { LinePrompt } from "./line_prompt.tsx";
import { fit, right } from "./format.ts";
import { rowsAround } from "./list_window.ts";
import { wrapText } from "./wrap_text.ts";
import { sideColumn, sideCoverageText } from "./coverage_text.ts";
import type { Coverage } from "../core/geometry/types.ts";
import { useTracksState } from "./use_tracks_state.ts";

/** The keys of the tracks view, for the help overlay. */
export const TRACKS_KEYS: readonly KeyHelp[] = [
  { key: "↑ ↓", action: "select a bundle" },
  { key: "o", action: "confirm the suggested official match" },
  { key: "e", action: "export the bundle to a file in the output folder" },
  { key: "i", action: "import a bundle from a file path (Enter reads it)" },
  { key: "u", action: "identify unlabelled sessions from the known circuits" },
  { key: "Esc", action: "cancel the path being typed" },
];

/** The keys line under the list. */
const TRACKS_HINT = "↑↓ bundle  o confirm official  e export  i import  u identify";

/** Rows of titles, details, progress, messages and keys around the list. */
const FIXED_ROWS = 9;

/** Lines a message may take (it wraps; the list gives up the rows). */
const MESSAGE_LINES = 3;

/** The tracks view. */
export function TracksView({ app, columns, rows, outDir, inputActive, setCapturing }: ViewProps) {
  const {
    list,
    index,
    current,
    suggestion,
    coverage,
    progress,
    path,
    setPath,
    startImport,
    message,
  } = useTracksState({ app, outDir, inputActive, setCapturing });
  const width = Math.max(60, columns);
  // A long message (the full path of an export) wraps rather than losing its file name.
  const said = wrapText(message?.text ?? "", width, MESSAGE_LINES);
  const listRows = Math.max(2, rows - FIXED_ROWS - 1 - (said.length - 1));
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{list === null ? "Track bundles" : `Track bundles (${list.length})`}</Text>
      {list === null
        ? <Text color="gray">Loading bundles...</Text>
        : list.length === 0
        ? <Text color="gray">No track bundles yet: survey a circuit or import one (i).</Text>
        : <BundleTable list={list} index={index} rows={listRows} width={width} />}
      <Box height={1} />
      <Text wrap="truncate">{coverageLine(current, coverage)}</Text>
      <Text wrap="truncate">{officialLine(current, suggestion)}</Text>
      <ProgressLine progress={progress} width={width} />
      {said.map((line, i) => (
        <Text key={i} wrap="truncate" color={message?.error ? "red" : "cyan"}>{line || " "}</Text>
      ))}
      {path !== null
        ? (
          <LinePrompt
            label="Import bundle from"
            value={path}
            onChange={setPath}
            onSubmit={startImport}
            focus={inputActive}
          />
        )
        : <Text color="gray" wrap="truncate">{TRACKS_HINT}</Text>}
    </Box>
  );
}

/**
 * What the selected bundle's borders cover, side by side: a share of the
 * lap when closed, metres surveyed when open (from `detail`, its compiled
 * coverage; until that is read, only whether each side is closed).
 */
function coverageLine(b: BundleListItem | null, detail: Coverage | null): string {
  if (!b) return " ";
  const c = b.coverage;
  if (!c) return "Coverage: none yet (no border cells)";
  if (detail) {
    return `Coverage: left ${sideCoverageText(detail.L)}; right ${sideCoverageText(detail.R)}`;
  }
  return `Coverage: left ${sideColumn(c.left_pct, c.closed_left)}; ` +
    `right ${sideColumn(c.right_pct, c.closed_right)}`;
}

/** The selected bundle's official match, or the catalogue's suggestion for it. */
function officialLine(b: BundleListItem | null, s: OfficialSuggestionResult | null): string {
  if (!b) return " ";
  if (b.official) return `Official: ${b.official.official_name} (confirmed)`;
  const sug = s?.suggestion;
  if (!sug) return s ? "Official: none; the catalogue suggests nothing" : "Official: none";
  return `Suggested: ${sug.official_name}, ${(sug.length_m / 1000).toFixed(3)} km, ` +
    `confidence ${sug.confidence.toFixed(2)}  o confirms`;
}

function BundleTable(
  { list, index, rows, width }: {
    list: readonly BundleListItem[];
    index: number;
    rows: number;
    width: number;
  },
) {
  const trackWidth = Math.max(12, Math.floor((width - 54) * 0.55));
  const officialWidth = Math.max(8, width - 54 - trackWidth);
  const row = (
    t: string,
    l: string,
    r: string,
    road: string,
    runs: string,
    src: string,
    o: string,
  ) =>
    `${fit(t, trackWidth)} ${right(l, 13)} ${right(r, 13)} ${right(road, 6)} ${right(runs, 4)} ` +
    `${right(src, 3)}  ${fit(o, officialWidth)}`;
  return (
    <Box flexDirection="column">
      <Text>
        {"  " + row("Track", "Left       ", "Right       ", "Road", "Runs", "Src", "Official")
          .trimEnd()}
      </Text>
      {rowsAround(list, index, rows - 1).rows.map(({ item: b, at }) => {
        const c = b.coverage;
        // The word pads to "closed", so the percentages line up whatever follows them.
        // An open side has no share of the lap to show: it says open, and the line under the
        // list gives its metres.
        const pct = (v: number | undefined, closed: boolean | undefined) =>
          v === undefined || closed === undefined ? "--" : sideColumn(v, closed);
        return (
          <Text key={b.slug} wrap="truncate" inverse={at === index}>
            {(at === index ? "> " : "  ") +
              row(
                b.track,
                pct(c?.left_pct, c?.closed_left),
                pct(c?.right_pct, c?.closed_right),
                c ? `${c.road_pct.toFixed(1)}%` : "--",
                String(b.runs),
                String(b.sources),
                b.official?.official_name ?? "-",
              ).trimEnd()}
          </Text>
        );
      })}
    </Box>
  );
}
