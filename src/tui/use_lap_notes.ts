/**
 * The dashboard's notice after each stored lap: the lap's top coaching
 * notes, from the bus's `notes` event, for {@linkcode PASSING_NOTICE_MS}.
 *
 * @module
 */
import { useEffect, useState } from "react";
import type { AppFace } from "../app/create_app.ts";
import { PASSING_NOTICE_MS } from "./notices.ts";
import { lapNotesNotice } from "./notes_line.ts";

/** The notice of the newest lap's notes, or null once it has had its few seconds. */
export function useLapNotes(app: Pick<AppFace, "bus">): string | null {
  const [text, setText] = useState<{ text: string; serial: number } | null>(null);
  useEffect(() => {
    let serial = 0;
    return app.bus.subscribe((event) => {
      if (event.type !== "notes") return;
      setText({ text: lapNotesNotice(event.lap_number, event.notes), serial: ++serial });
    });
  }, [app]);
  useEffect(() => {
    if (text === null) return;
    const timer = setTimeout(() => setText(null), PASSING_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return text?.text ?? null;
}
