/**
 * The dashboard's hook over {@linkcode TuiNotices}: the notice to show now.
 *
 * @module
 */
import { useEffect, useState } from "react";
import { type Notice, PASSING_NOTICE_MS, type TuiNotices } from "./notices.ts";

/**
 * The notice to show now from `notices`: the newest passing one for its
 * {@linkcode PASSING_NOTICE_MS}, else the standing ones (null when none).
 * Notices posted before the dashboard was drawn are shown too.
 */
export function useNotice(notices: TuiNotices | undefined): string | null {
  const [passing, setPassing] = useState<Notice | null>(notices?.passing ?? null);
  const [standing, setStanding] = useState<string | null>(notices?.standing ?? null);
  useEffect(() => {
    if (!notices) return;
    setStanding(notices.standing);
    return notices.subscribe((notice) => {
      setStanding(notices.standing);
      if (notice !== null) setPassing(notice.sticky ? null : notice);
    });
  }, [notices]);
  useEffect(() => {
    if (passing === null) return;
    const timer = setTimeout(() => setPassing(null), PASSING_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [passing]);
  return passing?.text ?? standing;
}
