/**
 * The dashboard's hook over {@linkcode TuiNotices}: the notice to show now.
 *
 * @module
 */
import { useEffect, useState } from "react";
import { type Notice, PASSING_NOTICE_MS, type TuiNotices } from "./notices.ts";

/**
 * The notice to show now from `notices` (null without one, or once a
 * passing notice has had its {@linkcode PASSING_NOTICE_MS}). A notice
 * posted before the dashboard was drawn is shown too.
 */
export function useNotice(notices: TuiNotices | undefined): string | null {
  const [notice, setNotice] = useState<Notice | null>(() => notices?.current ?? null);
  useEffect(() => {
    if (!notices) return;
    setNotice(notices.current);
    return notices.subscribe(setNotice);
  }, [notices]);
  useEffect(() => {
    if (notice === null || notice.sticky) return;
    const timer = setTimeout(() => setNotice(null), PASSING_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  return notice?.text ?? null;
}
