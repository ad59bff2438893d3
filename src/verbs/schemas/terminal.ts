// Fields several terminal verbs take alike.
import { z } from "zod";

export const session = z.string().min(1).max(200).describe("Session id or name.");

export const rows = z.number().int().min(2).max(500);
export const cols = z.number().int().min(10).max(1000);
