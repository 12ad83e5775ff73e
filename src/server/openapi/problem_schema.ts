/**
 * The zod schema of an RFC 9457 problem document, the one body every error
 * response of the API carries; src/server/problem.ts builds them, typed as
 * its `z.output`.
 *
 * @module
 */
import { z } from "zod";

/** The body of every error response (`application/problem+json`). */
export const problemSchema = z.strictObject({
  type: z.string().meta({ description: "a URI naming the kind of problem" }),
  title: z.string(),
  status: z.int().min(400).max(599),
  detail: z.string(),
  errors: z.array(z.strictObject({
    path: z.string().meta({
      description: "`$.field` in a body, `path.id` in the path, the bare name in a query",
    }),
    message: z.string(),
  })).optional().meta({ description: "each validation failure with its JSON path" }),
}).meta({ id: "Problem", description: "An RFC 9457 problem document." });
