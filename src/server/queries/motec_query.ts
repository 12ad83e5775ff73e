/**
 * The query of the API's MoTeC exports (`export.ld` and `export.ldx` of a
 * lap or a session): an optional driver's name for the log's header, by the
 * export's own rule ({@linkcode driverNameSchema}).
 *
 * @module
 */
import { z } from "zod";
import { driverNameSchema } from "../../app/laps/motec_export.ts";

/** The query of a MoTeC export: `driver`, optional. */
export const motecQuerySchema = z.object({ driver: driverNameSchema.optional() });
