/**
 * The contract between the dashboard's root and its views. A view is an
 * entry in a list: the number key that opens it, its title, the keys it
 * answers to (the help overlay lists them), and its component. Views to
 * come are added by appending an entry.
 *
 * @module
 */
import type { ComponentType } from "react";
import type { AppFace } from "../app/create_app.ts";

/** One key and what it does, as the help overlay lists it. */
export interface KeyHelp {
  /** The key as printed (`j`, `Enter`, `↑ ↓`). */
  key: string;
  /** What it does, in a few words. */
  action: string;
}

/** A line a view shows after an action: what happened, or why it failed. */
export interface ViewMessage {
  text: string;
  /** True for a failure (drawn red). */
  error: boolean;
}

/** What one view hands another it opens (`{lap: 12}`): plain values only. */
export type ViewParam = Readonly<Record<string, string | number | null>>;

/** What the root gives every view. */
export interface ViewProps {
  app: AppFace;
  /** Terminal width, in cells. */
  columns: number;
  /** Rows the view may use (the terminal's rows less the root's header). */
  rows: number;
  /** Folder that exports are written to. */
  outDir: string;
  /** False while an overlay has the keyboard: the view must ignore keys then. */
  inputActive: boolean;
  /**
   * Called with true while the view reads free text (a name), so the root's
   * own keys (view numbers, `?`, `q`) type into the text instead; false when done.
   */
  setCapturing(on: boolean): void;
  /**
   * What the view was opened with by another view's {@linkcode ViewProps.open};
   * null or absent when opened by its key. A new open remounts the view.
   */
  param?: ViewParam | null;
  /** Switches to view `id`, handing it `param` (an unknown id does nothing). */
  open?(id: string, param?: ViewParam): void;
}

/** A view of the dashboard. */
export interface ViewDef {
  /** The key that opens it: `1`, `2`, ... */
  key: string;
  /** Stable identifier (`live`, `sessions`). */
  id: string;
  /** Title in the header and the help. */
  title: string;
  /** The view's own keys. */
  keys: readonly KeyHelp[];
  Component: ComponentType<ViewProps>;
}
