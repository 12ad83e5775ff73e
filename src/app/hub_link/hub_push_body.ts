/**
 * The body of POST /api/hub/push: `{"laps": [ids]}`, 1 to
 * {@linkcode MAX_PUSH_LAPS} distinct positive integer lap ids. A fault in
 * one id is reported at `laps[i]`, in the words a driver reads (`the 2nd lap
 * id (0) must be a positive integer`), as the lap id lists of the query
 * strings word it.
 *
 * @module
 */
import { z } from "zod";
import { ordinal } from "../../core/ordinal.ts";

/** Most laps one push names. */
export const MAX_PUSH_LAPS = 1000;

const LIST_RULE = `laps must list 1 to ${MAX_PUSH_LAPS} distinct positive integer lap ids`;

/** POST /api/hub/push {laps}. */
export const hubPushBodySchema = z.strictObject({
  laps: z.array(z.unknown(), { error: `required: ${LIST_RULE}` })
    .transform((laps, ctx) => {
      const fail = (message: string, at?: number) => {
        ctx.addIssue({ code: "custom", message, path: at === undefined ? [] : [at], input: laps });
        return z.NEVER;
      };
      if (laps.length === 0 || laps.length > MAX_PUSH_LAPS) {
        return fail(`${LIST_RULE}, got ${laps.length}`);
      }
      const ids: number[] = [];
      for (const [i, v] of laps.entries()) {
        const which = `the ${ordinal(i + 1)} lap id`;
        if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1) {
          return fail(`${which} (${JSON.stringify(v)}) must be a positive integer`, i);
        }
        const first = ids.indexOf(v);
        if (first >= 0) {
          return fail(`${which} (${v}) repeats the ${ordinal(first + 1)}: list each lap once`, i);
        }
        ids.push(v);
      }
      return ids;
    })
    .meta({ description: `1 to ${MAX_PUSH_LAPS} distinct positive integer lap ids` }),
});

/** A push as {@linkcode hubPushBodySchema} parsed it. */
export type HubPushBody = z.output<typeof hubPushBodySchema>;
