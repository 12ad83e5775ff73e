/**
 * The tracks view's state and keys: the stored bundles (re-read on every
 * `bundle` event), the selected one's official suggestion, and the actions:
 * confirm the suggestion, export to a file, import from a typed path with
 * progress, identify unlabelled sessions. The view only draws what this
 * returns.
 *
 * @module
 */
import { useCallback, useState } from "react";
import type { BundleListItem } from "../app/bundles/bundles.ts";
import type { ImportProgress } from "../app/laps/files.ts";
import { importRefusal } from "./lap_import_text.ts";
import type { OfficialSuggestionResult } from "../app/bundles/official.ts";
import type { Coverage } from "../core/geometry/types.ts";
import type { ViewMessage, ViewProps } from "./view_types.ts";
import { SAMPLE_MS } from "./use_app_state.ts";
import { plural } from "./format.ts";
import { useLatestState } from "./use_latest_state.ts";
import { useLoad } from "./use_load.ts";
import { useTextEntry } from "./use_text_entry.ts";
import { useBusVersion } from "./use_bus_version.ts";
import { useKeys } from "./use_keys.ts";
import { indexOfKey, movedKey } from "./list_selection.ts";

/** What the tracks view draws. */
export interface TracksState {
  /** Every stored bundle, in slug order; null while loading. */
  list: BundleListItem[] | null;
  /** The selected bundle's index in `list`. */
  index: number;
  /** The selected bundle, or null with none. */
  current: BundleListItem | null;
  /** The catalogue's suggestion for the selected bundle, once read. */
  suggestion: OfficialSuggestionResult | null;
  /** The selected bundle's coverage in metres and shares (its compiled geometry), once read. */
  coverage: Coverage | null;
  /** The import under way or last finished, or null. */
  progress: ImportProgress | null;
  /** The path being typed for an import, or null when not typing. */
  path: string | null;
  /** Replaces the path being typed. */
  setPath(path: string): void;
  /** Imports the bundle at the typed path (relative to the output folder). */
  startImport(typed: string): void;
  message: ViewMessage | null;
}

/** The tracks view's state over `app`, answering its keys while `inputActive`. */
export function useTracksState(
  { app, outDir, inputActive, setCapturing }: Pick<
    ViewProps,
    "app" | "outDir" | "inputActive" | "setCapturing"
  >,
): TracksState {
  const version = useBusVersion(app, ["bundle"]);
  const [list, setList] = useState<BundleListItem[] | null>(null);
  // Read back by the key handler, so every key of a burst moves from where the last one left.
  const selected = useLatestState<string | null>(null);
  const [suggestion, setSuggestion] = useState<OfficialSuggestionResult | null>(null);
  const [message, setMessage] = useState<ViewMessage | null>(null);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const entry = useTextEntry<string>({
    setCapturing,
    inputActive,
    onCancel: () => setMessage({ text: "import cancelled", error: false }),
  });
  const path = entry.value;
  const [busy, setBusy] = useState(false);

  useLoad(
    () => app.bundles.list(),
    [app, version],
    setList,
    (err) => setMessage({ text: `cannot list bundles: ${err.message}`, error: true }),
  );

  const index = indexOfKey(list, selected.value, bundleSlug);
  const current = list?.[index] ?? null;

  useLoad(
    () => current && app.bundles.officialSuggestion(current.slug),
    [app, current?.slug, version],
    setSuggestion,
    () => setSuggestion(null),
  );

  const shownSuggestion = suggestion?.slug === current?.slug ? suggestion : null;

  const [coverage, setCoverage] = useState<{ slug: string; coverage: Coverage } | null>(null);
  useLoad(
    () =>
      current && current.coverage &&
      app.geometry.compiled(current.slug).then((doc) => ({
        slug: current.slug,
        coverage: doc.coverage,
      })),
    [app, current?.slug, version],
    setCoverage,
    // Gone meanwhile: the list's own figures stay.
    () => setCoverage(null),
  );

  const startImport = useCallback((typed: string) => {
    const file = typed.trim();
    if (file === "") return;
    entry.close();
    setBusy(true);
    setMessage(null);
    app.files.importBundleFile(file, {
      dir: outDir,
      onProgress: setProgress,
      pause: () => new Promise((r) => setTimeout(r, SAMPLE_MS)),
    }).then(
      (r) => {
        selected.set(r.slug);
        setMessage({
          text:
            `imported "${r.track}": ${r.edges_before} -> ${r.edges} cells (+${r.added_edges}), ` +
            `${plural(r.runs, "run")}`,
          error: false,
        });
      },
      (err) => {
        setProgress(null);
        setMessage({ text: `import failed: ${importRefusal(err)}`, error: true });
      },
    ).finally(() => setBusy(false));
  }, [app, outDir, entry.close, selected.set]);

  useKeys((input, key) => {
    if (path !== null) return;
    if ((key.upArrow || key.downArrow) && list && list.length > 0) {
      const step = key.upArrow ? -1 : 1;
      selected.set(movedKey(list, selected.get(), step, bundleSlug));
      return;
    }
    if (busy) return;
    if (input === "i") {
      entry.open("");
      setMessage(null);
    } else if (input === "u") {
      identifyUnlabelled(app, setMessage, setBusy);
    } else if (!current) {
      if (input === "o" || input === "e") setMessage({ text: "no bundle selected", error: true });
    } else if (input === "e") {
      exportBundle(app, current.slug, outDir, setMessage);
    } else if (input === "o") {
      confirmSuggestion(app, current, shownSuggestion, setMessage);
    }
  }, { isActive: inputActive });

  const setPath = useCallback((v: string) => entry.change(() => v), [entry.change]);

  return {
    list,
    index,
    current,
    suggestion: shownSuggestion,
    coverage: coverage && coverage.slug === current?.slug ? coverage.coverage : null,
    progress,
    path,
    setPath,
    startImport,
    message,
  };
}

/** Identifies the unlabelled sessions (key u), saying how it went; busy meanwhile. */
function identifyUnlabelled(
  app: ViewProps["app"],
  setMessage: (message: ViewMessage | null) => void,
  setBusy: (busy: boolean) => void,
): void {
  setBusy(true);
  setMessage({ text: "identifying unlabelled sessions...", error: false });
  app.tracks.identifyUnlabelled().then(
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
}

/** Exports bundle `slug` into `outDir` (key e), saying where it went. */
function exportBundle(
  app: ViewProps["app"],
  slug: string,
  outDir: string,
  setMessage: (message: ViewMessage | null) => void,
): void {
  // The exports folder is made on first use, as the Sessions view's exports do.
  Deno.mkdir(outDir, { recursive: true }).then(() => app.files.exportBundle(slug, { dir: outDir }))
    .then(
      (p) => setMessage({ text: `wrote ${p}`, error: false }),
      (err) => setMessage({ text: `export failed: ${err.message}`, error: true }),
    );
}

/** Confirms the shown official suggestion for `current` (key o), or says why there is none. */
function confirmSuggestion(
  app: ViewProps["app"],
  current: BundleListItem,
  shown: OfficialSuggestionResult | null,
  setMessage: (message: ViewMessage | null) => void,
): void {
  const s = shown?.suggestion;
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
  app.bundles.confirmOfficial(current.slug, { official }).then(
    (r) => setMessage({ text: `${r.track} is ${r.official?.official_name}`, error: false }),
    (err) => setMessage({ text: err.message, error: true }),
  );
}

function bundleSlug(b: BundleListItem): string {
  return b.slug;
}
