/**
 * The tracks view: the stored track bundles with their coverage, runs,
 * sources and official match, and the actions on them: confirm the
 * suggested official match, export to a file, import from a file (with a
 * progress bar), and name unlabelled sessions from the known circuits.
 *
 * @module
 */
import { useCallback, useEffect, useState } from "react";
import { Box, Text, useInput } from "ink";
import { type BundleListItem, listBundles } from "../app/bundles.ts";
import {
  confirmOfficial,
  officialSuggestion,
  type OfficialSuggestionResult,
} from "../app/official.ts";
import { identifyUnlabelled } from "../app/tracks.ts";
import type { KeyHelp, ViewProps } from "./view_types.ts";
import {
  importBundleFile,
  importFraction,
  type ImportProgress,
  writeBundleExport,
} from "./bundle_files.ts";
import { ProgressBar } from "./bars.tsx";
import { LinePrompt } from "./line_prompt.tsx";
import { SAMPLE_MS } from "./use_app_state.ts";
import { fit, plural, right } from "./format.ts";
import { useLoad } from "./use_load.ts";

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

interface Message {
  text: string;
  error: boolean;
}

/** Rows of titles, details, progress, messages and keys around the list. */
const FIXED_ROWS = 8;

/** The tracks view. */
export function TracksView({ app, columns, rows, outDir, inputActive, setCapturing }: ViewProps) {
  const [version, setVersion] = useState(0);
  const [list, setList] = useState<BundleListItem[] | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [suggestion, setSuggestion] = useState<OfficialSuggestionResult | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [path, setPath] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(
    () =>
      app.bus.subscribe((e) => {
        if (e.type === "bundle") setVersion((v) => v + 1);
      }),
    [app],
  );

  useLoad(
    () => listBundles(app),
    [app, version],
    setList,
    (err) => setMessage({ text: `cannot list bundles: ${err.message}`, error: true }),
  );

  const index = list ? Math.max(0, list.findIndex((b) => b.slug === selected)) : 0;
  const current = list?.[index] ?? null;

  useLoad(
    () => current && officialSuggestion(app, current.slug),
    [app, current?.slug, version],
    setSuggestion,
    () => setSuggestion(null),
  );

  const shownSuggestion = suggestion?.slug === current?.slug ? suggestion : null;

  const stopTyping = useCallback(() => {
    setPath(null);
    setCapturing(false);
  }, [setCapturing]);
  useEffect(() => () => setCapturing(false), [setCapturing]);

  const startImport = useCallback((typed: string) => {
    const file = typed.trim();
    if (file === "") return;
    stopTyping();
    setBusy(true);
    setMessage(null);
    importBundleFile(
      app,
      file,
      outDir,
      setProgress,
      () => new Promise((r) => setTimeout(r, SAMPLE_MS)),
    ).then(
      (r) => {
        setSelected(r.slug);
        setMessage({
          text:
            `imported "${r.track}": ${r.edges_before} -> ${r.edges} cells (+${r.added_edges}), ` +
            `${plural(r.runs, "run")}`,
          error: false,
        });
      },
      (err) => {
        setProgress(null);
        setMessage({ text: `import failed: ${importError(err)}`, error: true });
      },
    ).finally(() => setBusy(false));
  }, [app, outDir, stopTyping]);

  useInput((input, key) => {
    if (path !== null) {
      if (key.escape) {
        stopTyping();
        setMessage({ text: "import cancelled", error: false });
      }
      return;
    }
    if ((key.upArrow || key.downArrow) && list && list.length > 0) {
      const step = key.upArrow ? -1 : 1;
      setSelected(list[Math.min(list.length - 1, Math.max(0, index + step))].slug);
      return;
    }
    if (busy) return;
    if (input === "i") {
      setPath("");
      setCapturing(true);
      setMessage(null);
    } else if (input === "u") {
      setBusy(true);
      setMessage({ text: "identifying unlabelled sessions...", error: false });
      identifyUnlabelled(app).then(
        (r) => {
          const names = Object.entries(r.tracks).map(([n, k]) => `${n} x${k}`).join(", ");
          setMessage({
            text: `identify: checked ${r.checked}, identified ${r.identified}` +
              (names ? ` (${names})` : ""),
            error: false,
          });
        },
        (err) => setMessage({ text: `identify: ${err.message}`, error: true }),
      ).finally(() => setBusy(false));
    } else if (!current) {
      if (input === "o" || input === "e") setMessage({ text: "no bundle selected", error: true });
    } else if (input === "e") {
      writeBundleExport(app, current.slug, outDir).then(
        (p) => setMessage({ text: `wrote ${p}`, error: false }),
        (err) => setMessage({ text: `export failed: ${err.message}`, error: true }),
      );
    } else if (input === "o") {
      const s = shownSuggestion?.suggestion;
      if (!s) {
        setMessage({
          text: current.official ? "already confirmed" : "no suggestion to confirm",
          error: true,
        });
        return;
      }
      const official = {
        track: s.track,
        layout: s.layout,
        official_id: s.official_id,
        official_name: s.official_name,
        turns: s.turns,
        length_m: s.length_m,
        reverse: s.reverse,
      };
      confirmOfficial(app, current.slug, { official }).then(
        (r) => setMessage({ text: `${r.track} is ${r.official?.official_name}`, error: false }),
        (err) => setMessage({ text: err.message, error: true }),
      );
    }
  }, { isActive: inputActive });

  const width = Math.max(60, columns);
  const listRows = Math.max(2, rows - FIXED_ROWS - 1);
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{list === null ? "Track bundles" : `Track bundles (${list.length})`}</Text>
      {list === null
        ? <Text color="gray">Loading bundles...</Text>
        : list.length === 0
        ? <Text color="gray">No track bundles yet: survey a circuit or import one (i).</Text>
        : <BundleTable list={list} index={index} rows={listRows} width={width} />}
      <Box height={1} />
      <Text wrap="truncate">{officialLine(current, shownSuggestion)}</Text>
      <ProgressLine progress={progress} width={width} />
      <Text wrap="truncate" color={message?.error ? "red" : "cyan"}>{message?.text ?? " "}</Text>
      {path !== null
        ? (
          <LinePrompt
            label="Import bundle from"
            value={path}
            onChange={(v) => setPath((p) => (p === null ? null : v))}
            onSubmit={startImport}
            focus={inputActive}
          />
        )
        : <Text color="gray" wrap="truncate">{TRACKS_HINT}</Text>}
    </Box>
  );
}

function importError(err: unknown): string {
  const issues = (err as { issues?: { path: string; message: string }[] }).issues;
  const first = issues?.[0];
  return first ? `${first.path}: ${first.message}` : (err as Error).message;
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

function ProgressLine({ progress: p, width }: { progress: ImportProgress | null; width: number }) {
  if (p === null) return <Text></Text>;
  const kb = (n: number) => `${Math.ceil(n / 1024)} kB`;
  const label = p.phase === "read"
    ? `reading ${kb(p.bytes)} of ${kb(p.total)}`
    : p.phase === "parse"
    ? `parsing ${kb(p.total)}`
    : p.phase === "import"
    ? "validating, merging, storing"
    : `imported ${kb(p.total)}`;
  const step = p.phase === "done" ? 3 : p.phase === "read" ? 1 : p.phase === "parse" ? 2 : 3;
  return (
    <Text wrap="truncate">
      {"Import "}
      <ProgressBar fraction={importFraction(p)} width={Math.max(10, Math.min(30, width - 50))} />
      {` ${step}/3 ${label}`}
    </Text>
  );
}

function BundleTable(
  { list, index, rows, width }: {
    list: readonly BundleListItem[];
    index: number;
    rows: number;
    width: number;
  },
) {
  const trackWidth = Math.max(12, Math.floor((width - 40) * 0.55));
  const officialWidth = Math.max(8, width - 40 - trackWidth);
  const row = (
    t: string,
    l: string,
    r: string,
    road: string,
    runs: string,
    src: string,
    o: string,
  ) =>
    `${fit(t, trackWidth)} ${right(l, 6)} ${right(r, 6)} ${right(road, 6)} ${right(runs, 4)} ` +
    `${right(src, 3)}  ${fit(o, officialWidth)}`;
  const n = Math.max(1, rows - 1);
  const start = Math.min(Math.max(0, index - Math.floor(n / 2)), Math.max(0, list.length - n));
  return (
    <Box flexDirection="column">
      <Text>
        {"  " + row("Track", "Left", "Right", "Road", "Runs", "Src", "Official").trimEnd()}
      </Text>
      {list.slice(start, start + n).map((b, i) => {
        const at = start + i;
        const c = b.coverage;
        const pct = (v: number | undefined) => (v === undefined ? "--" : `${v.toFixed(1)}%`);
        return (
          <Text key={b.slug} wrap="truncate" inverse={at === index}>
            {(at === index ? "> " : "  ") +
              row(
                b.track,
                pct(c?.left_pct),
                pct(c?.right_pct),
                pct(c?.road_pct),
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
