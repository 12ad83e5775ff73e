/**
 * The dashboard's root: a header naming the views, the current view, the
 * help overlay, the name prompt for a new session, and the keys that work
 * everywhere (view numbers, `?`, `q`).
 *
 * @module
 */
import { useCallback, useEffect, useState } from "react";
import { Box, Text, useApp, useStdout } from "ink";
import type { AppFace } from "../app/create_app.ts";
import type { KeyHelp, ViewDef, ViewParam } from "./view_types.ts";
import { GLOBAL_KEYS, VIEWS } from "./views.ts";
import { Help } from "./help.tsx";
import { NamePrompt } from "./name_prompt.tsx";
import { type NamePromptState, useNamePrompt } from "./use_name_prompt.ts";
import { fit } from "./format.ts";
import type { TuiNotices } from "./notices.ts";
import { useNotice } from "./use_notice.ts";
import { useLapNotes } from "./use_lap_notes.ts";
import { useKeys } from "./use_keys.ts";
import { SectorTiming, useSectorTiming } from "./sector_timing.ts";
import { type LivePageQr, QR_KEY, QrOverlay } from "./qr_overlay.tsx";

/** Size assumed when the output does not say (not a terminal). */
export const DEFAULT_SIZE = { columns: 80, rows: 24 } as const;

/** Props of {@linkcode AppView}. */
export interface AppViewProps {
  app: AppFace;
  /** Folder for exported laps; the current directory by default. */
  outDir?: string;
  /** The views, in key order; {@linkcode VIEWS} by default. */
  views?: readonly ViewDef[];
  /** Keys of the root, for the help; {@linkcode GLOBAL_KEYS} by default. */
  globalKeys?: readonly KeyHelp[];
  /** Id of the view shown first; the first view by default. */
  initialView?: string;
  /** Called once when the driver quits, before Ink unmounts. */
  onQuit?: () => void;
  /** The HTTP API's address, shown at the right of the tabs (shortened when narrow). */
  apiUrl?: string;
  /** Notices from the command (a new store, the demo's drive over), on a line under the tabs. */
  notices?: TuiNotices;
  /** The live page's QR code (with `--lan`): `p` shows it, and it is up on start when `open`. */
  livePage?: LivePageQr;
}

/** The help's line for {@linkcode QR_KEY}, listed when there is a code to show. */
export const QR_KEY_HELP: KeyHelp = { key: QR_KEY, action: "show or hide the live page's QR code" };

/** The whole dashboard. `q` calls `onQuit` and ends the Ink app. */
export function AppView(props: AppViewProps) {
  const views = props.views ?? VIEWS;
  const { exit } = useApp();
  const { columns, rows } = useTerminalSize();
  const [current, setCurrent] = useState(props.initialView ?? views[0].id);
  const [help, setHelp] = useState(false);
  const livePage = props.livePage ?? null;
  const [qr, setQr] = useState(livePage?.open ?? false);
  const [capturing, setCapturing] = useState(false);
  // What a view opened another with; `serial` remounts the view on every open.
  const [opened, setOpened] = useState<{ param: ViewParam | null; serial: number }>({
    param: null,
    serial: 0,
  });
  const open = useCallback((id: string, param?: ViewParam) => {
    if (!views.some((v) => v.id === id)) return;
    setCurrent(id);
    setOpened((o) => ({ param: param ?? null, serial: o.serial + 1 }));
  }, [views]);
  // Sector timing outlives the Live view, so a view switch keeps the lap's sectors.
  const sectors = useSectorTiming(props.app);
  const prompt = useNamePrompt(props.app);
  const prompting = prompt.target !== null;
  // The prompt has the keyboard only once the driver gave it (use_name_prompt.ts).
  const typing = prompt.typing !== null;
  // How the last prompt ended comes first, then the command's notices; full width, under the tabs.
  const external = useNotice(props.notices);
  // A stored lap's top coaching notes pass by for a few seconds.
  const lapNotes = useLapNotes(props.app);
  const notice = prompt.notice ?? lapNotes ?? external;
  // The header's rows, and the prompt's panel at the bottom: the view gets the rest.
  const headRows = notice === null ? 1 : 2;
  const { panelMax, panelRows, setPromptUsed } = usePromptPanel(rows, prompting);
  const viewRows = rows - headRows - panelRows;

  useKeys((input, key) => {
    const named = views.find((v) => v.key === input);
    const qrKey = input === QR_KEY && livePage !== null;
    const rootKey = input === "q" || input === "?" || ((help || qr) && key.escape) ||
      named !== undefined || qrKey;
    const viewHasKeys = (views.find((v) => v.id === current) ?? views[0]).keys.length > 0;
    if (prompt.take(input, key, { rootKey, viewHasKeys })) return;
    if (input === "q") {
      props.onQuit?.();
      exit();
    } else if (input === "?") {
      setHelp((h) => !h);
      setQr(false);
    } else if (qrKey) {
      setQr((q) => !q);
      setHelp(false);
    } else if ((help || qr) && key.escape) {
      setHelp(false);
      setQr(false);
    } else {
      const view = named;
      if (view) {
        setCurrent(view.id);
        setOpened((o) => ({ param: null, serial: o.serial }));
        setHelp(false);
        setQr(false);
      }
    }
  }, { isActive: !capturing && !typing });

  const view = views.find((v) => v.id === current) ?? views[0];
  const { Component } = view;
  // The prompt shares the screen (the view stays drawn above it); once typing, it has the keyboard.
  const covered = help || qr;
  const globalKeys = [...(props.globalKeys ?? GLOBAL_KEYS), ...(livePage ? [QR_KEY_HELP] : [])];
  return (
    <SectorTiming.Provider value={sectors}>
      <Box flexDirection="column" width={columns}>
        <Header
          views={views}
          current={view.id}
          help={help}
          columns={columns}
          apiUrl={props.apiUrl ?? null}
          qrKey={livePage !== null}
        />
        {notice === null
          ? null
          : <Text color="cyan" wrap="truncate">{fit(notice, columns).trimEnd()}</Text>}
        {help && !typing ? <Help views={views} globalKeys={globalKeys} current={view} /> : null}
        {qr && livePage && !typing ? <QrOverlay qr={livePage} /> : null}
        {/* The view stays mounted under an overlay so its selection survives. */}
        <Box display={covered ? "none" : "flex"} flexDirection="column">
          <Component
            key={`${view.id}:${opened.serial}`}
            app={props.app}
            columns={columns}
            rows={viewRows}
            outDir={props.outDir ?? Deno.cwd()}
            inputActive={!covered && !typing}
            setCapturing={setCapturing}
            param={opened.param}
            open={open}
          />
        </Box>
        <PromptPanel
          app={props.app}
          prompt={prompt}
          columns={columns}
          rows={panelMax}
          onRows={setPromptUsed}
          hidden={covered && !typing}
          viewHasKeys={view.keys.length > 0}
          rootKeys={rootKeysText(views, livePage !== null)}
        />
      </Box>
    </SectorTiming.Provider>
  );
}

interface PromptPanelProps {
  app: AppFace;
  prompt: NamePromptState;
  columns: number;
  /** The most rows the panel may take. */
  rows: number;
  onRows(rows: number): void;
  /** True while the help or the QR code covers the view and the prompt waits. */
  hidden: boolean;
  viewHasKeys: boolean;
  rootKeys: string;
}

/** The name prompt at the bottom while it asks; a waiting one hides, keeping its state, when covered. */
function PromptPanel({ app, prompt, hidden, ...rest }: PromptPanelProps) {
  if (prompt.target === null) return null;
  return (
    <Box display={hidden ? "none" : "flex"}>
      <NamePrompt
        key={prompt.target.sessionId}
        app={app}
        target={prompt.target}
        typing={prompt.typing}
        submit={prompt.submit}
        onClose={prompt.close}
        {...rest}
      />
    </Box>
  );
}

/**
 * The name prompt's panel on a terminal of `rows`: drawn at most
 * `panelMax` high, it takes from the view only the rows it fills (as its
 * `onRows` reports them; `panelMax` until it does), none while closed.
 */
function usePromptPanel(rows: number, prompting: boolean) {
  const panelMax = promptPanelRows(rows);
  const [used, setPromptUsed] = useState(panelMax);
  return { panelMax, panelRows: prompting ? Math.min(panelMax, used) : 0, setPromptUsed };
}

/** The root's keys in a few characters, for the waiting name prompt: `1-6 ? q` (and `p`). */
export function rootKeysText(views: readonly ViewDef[], qrKey: boolean): string {
  const numbers = views.length > 1 ? `${views[0].key}-${views.at(-1)!.key}` : views[0].key;
  return `${numbers} ? q${qrKey ? ` ${QR_KEY}` : ""}`;
}

/**
 * Rows of the name prompt's panel on a terminal of `rows`: about 40 % of
 * it, 8 to 12 rows, so the live readouts above stay in view.
 */
export function promptPanelRows(rows: number): number {
  return Math.min(12, Math.max(8, Math.floor((rows - 1) * 0.4)));
}

interface HeaderProps {
  views: readonly ViewDef[];
  current: string;
  help: boolean;
  columns: number;
  /** The HTTP API's address, or null when there is none to show. */
  apiUrl: string | null;
  /** Whether {@linkcode QR_KEY} shows a QR code: the hints then name it first. */
  qrKey: boolean;
}

function Header({ views, current, help, columns, apiUrl, qrKey }: HeaderProps) {
  const hint = (qrKey ? `${QR_KEY} QR  ` : "") + (help ? "? close help  q quit" : "? help  q quit");
  const fitted = headerFit(views, columns, apiUrl, hint);
  const { compact, address } = fitted;
  return (
    <Box justifyContent="space-between">
      <Text wrap="truncate">
        {views.map((v, i) => (
          <Text key={v.id}>
            {i > 0 ? " " : ""}
            <Text inverse={v.id === current && !help} bold={v.id === current}>
              {tabText(v, v.id === current, compact)}
            </Text>
          </Text>
        ))}
      </Text>
      <Text wrap="truncate">
        {address ? <Text color="blue">{address}</Text> : null}
        {address ? "  " : ""}
        <Text color="gray">{fitted.hint}</Text>
      </Text>
    </Box>
  );
}

/** A view's tab: `[1 Live]` when current, ` 2 Sessions ` (or `2 Sessions` when compact) otherwise. */
function tabText(v: ViewDef, current: boolean, compact: boolean): string {
  if (current) return `[${v.key} ${v.title}]`;
  return compact ? `${v.key} ${v.title}` : ` ${v.key} ${v.title} `;
}

function tabsWidth(views: readonly ViewDef[], compact: boolean): number {
  return views.reduce(
    (n, v, i) => n + (i > 0 ? 1 : 0) + [...tabText(v, false, compact)].length,
    0,
  ) +
    (compact ? 2 : 0);
}

/** The hints' last part, which goes first when the address needs room: the help lists `q` too. */
const QUIT_HINT = "  q quit";

/**
 * How the header fits `columns`: the roomy tabs when they leave space for
 * the key hints `hint`, else compact ones; then the first that fits of: the
 * API address whole (`http://127.0.0.1:8765`), without its scheme, the
 * same with the hints cut to {@linkcode SHORT_HINT} (to
 * {@linkcode SHORT_CLOSE_HINT} while the help is open), `:8765` (with the
 * whole hints, then the cut ones), or none.
 */
export function headerFit(
  views: readonly ViewDef[],
  columns: number,
  apiUrl: string | null,
  hint: string,
): { compact: boolean; address: string | null; hint: string } {
  const compact = tabsWidth(views, false) + 2 + hint.length > columns;
  const free = columns - tabsWidth(views, compact) - 2 - 2;
  if (apiUrl === null) return { compact, address: null, hint };
  const bare = apiUrl.replace(/^[a-z]+:\/\//, "");
  const port = bare.slice(bare.lastIndexOf(":"));
  const short = hint.endsWith(QUIT_HINT) ? hint.slice(0, -QUIT_HINT.length) : hint;
  const options: [string, string][] = [
    [apiUrl, hint],
    [bare, hint],
    [bare, short],
    [port, hint],
    [port, short],
  ];
  const fits = options.find(([a, h]) => a.length + h.length <= free);
  return fits ? { compact, address: fits[0], hint: fits[1] } : { compact, address: null, hint };
}

/** The output's size, following resizes; {@linkcode DEFAULT_SIZE} when it does not say. */
export function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  // A terminal stream carries its size; a pipe or a test double may not.
  const sized = stdout as { columns?: number; rows?: number };
  const read = () => ({
    columns: sized.columns || DEFAULT_SIZE.columns,
    rows: sized.rows || DEFAULT_SIZE.rows,
  });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  }, [stdout]);
  return size;
}
