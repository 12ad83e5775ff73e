/**
 * The hub's refusals of who is asking: no token, an unknown or revoked one
 * (401), or a token that may not do this (403). The HTTP face answers them
 * as its own Unauthorized; the command line prints them.
 *
 * @module
 */
import { UserError } from "../../core/errors.ts";

/** A request refused for who sent it; `status` 401 (who?) or 403 (not you). */
export class HubDenied extends UserError {
  readonly title: string;
  /** 401: no valid token; 403: a valid token that may not do this. */
  readonly status: 401 | 403;
  /** The refusal, saying why, with its status. */
  constructor(message: string, status: 401 | 403) {
    super(message);
    this.status = status;
    this.title = status === 401 ? "Unauthorized" : "Forbidden";
  }
}
