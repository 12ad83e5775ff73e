/**
 * The dashboard's root: a header naming the views, the current view, the
 * help overlay, the name prompt for a new session, and the keys that work
 * everywhere (view numbers, `?`, `q`).
 *
 * @module
 */
import { useEffect, useState } from "react";
import { Box, Text, useApp, useInput, useStdout } from "ink";
import type { App } from "../app/create_app.ts";
import type { KeyHelp, ViewDef } from "./view_types.ts";
import { GLOBAL_KEYS, VIEWS } from "./views.ts";
import { Help } from "./help.tsx";
import { NamePrompt, useNamePrompt } from "./name_prompt.tsx";
import { fit } from "./format.ts";

/** Size assumed when the output does not say (not a terminal). */
export const DEFAULT_SIZE = { columns: 80, rows: 24 } as const;

/** Props of {@linkcode AppView}. */
export interface AppViewProps {
  app: App;
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
}

/** The whole dashboard. `q` calls `onQuit` and ends the Ink app. */
export function AppView(props: AppViewProps) {
  const views = props.views ?? VIEWS;
  const { exit } = useApp();
  const { columns, rows } = useTerminalSize();
  const [current, setCurrent] = useState(props.initialView ?? views[0].id);
  const [help, setHelp] = useState(false);
  const [capturing, setCapturing] = useState(false);
  const prompt = useNamePrompt(props.app);
  const prompting = prompt.target !== null;

  useInput((input, key) => {
    if (input === "q") {
      props.onQuit?.();
      exit();
    } else if (input === "?") {
      setHelp((h) => !h);
    } else if (help && key.escape) {
      setHelp(false);
    } else {
      const view = views.find((v) => v.key === input);
      if (view) {
        setCurrent(view.id);
        setHelp(false);
      }
    }
  }, { isActive: !capturing && !prompting });

  const view = views.find((v) => v.id === current) ?? views[0];
  const { Component } = view;
  const covered = help || prompting;
  return (
    <Box flexDirection="column" width={columns}>
      <Header
        views={views}
        current={view.id}
        help={help}
        notice={prompt.notice}
        columns={columns}
      />
      {help && !prompting
        ? <Help views={views} globalKeys={props.globalKeys ?? GLOBAL_KEYS} current={view} />
        : null}
      {prompt.target
        ? (
          <NamePrompt
            key={prompt.target.sessionId}
            app={props.app}
            target={prompt.target}
            columns={columns}
            rows={rows - 1}
            onClose={prompt.close}
          />
        )
        : null}
      {/* The view stays mounted under an overlay so its selection survives. */}
      <Box display={covered ? "none" : "flex"} flexDirection="column">
        <Component
          key={view.id}
          app={props.app}
          columns={columns}
          rows={rows - 1}
          outDir={props.outDir ?? Deno.cwd()}
          inputActive={!covered}
          setCapturing={setCapturing}
        />
      </Box>
    </Box>
  );
}

interface HeaderProps {
  views: readonly ViewDef[];
  current: string;
  help: boolean;
  /** A passing message shown in place of the key hints. */
  notice: string | null;
  columns: number;
}

function Header({ views, current, help, notice, columns }: HeaderProps) {
  const tabs = views.map((v) =>
    v.id === current ? `[${v.key} ${v.title}]` : ` ${v.key} ${v.title} `
  )
    .join(" ");
  const hint = help ? "? close help  q quit" : "? help  q quit";
  const room = Math.max(0, columns - [...tabs].length - 2);
  return (
    <Box justifyContent="space-between">
      <Text wrap="truncate">
        {views.map((v, i) => (
          <Text key={v.id}>
            {i > 0 ? " " : ""}
            <Text inverse={v.id === current && !help} bold={v.id === current}>
              {v.id === current ? `[${v.key} ${v.title}]` : ` ${v.key} ${v.title} `}
            </Text>
          </Text>
        ))}
      </Text>
      {notice === null
        ? <Text color="gray">{hint}</Text>
        : <Text color="cyan">{fit(notice, room).trimEnd()}</Text>}
    </Box>
  );
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
