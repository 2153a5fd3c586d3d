import { z } from 'zod';
import {
  forkedFromSchema,
  isoDateSchema,
  messageSchema,
  pendingQuestionSchema,
  usageSchema,
} from '../records/saved-values.js';
import type { FileVersion } from './session-file-records.js';

const turn = z.number().int().positive();
const count = z.number().int().nonnegative();

/** Version 1, as released. Never changed: a later version is a new entry. */
const VERSION_1: FileVersion = {
  header: z.object({
    type: z.literal('session'),
    version: z.literal(1),
    id: z.string(),
    createdAt: isoDateSchema,
    title: z.string().optional(),
    model: z.string().optional(),
    workspace: z.string().optional(),
    forkedFrom: forkedFromSchema.optional(),
  }),
  record: z.discriminatedUnion('type', [
    z.object({ type: z.literal('message'), turn, message: messageSchema }),
    z.object({ type: z.literal('replace'), turn, messages: z.array(messageSchema) }),
    z.object({
      type: z.literal('commit'),
      turn,
      at: isoDateSchema,
      usage: usageSchema,
      exit: z.string().optional(),
      pendingQuestion: pendingQuestionSchema.optional(),
      title: z.string().optional(),
      model: z.string().optional(),
      messageCount: count,
      totalUsage: usageSchema,
    }),
  ]),
};

/** Every version of the file format this version of the store reads, by its number. */
export const FILE_VERSIONS: ReadonlyMap<number, FileVersion> = new Map([[1, VERSION_1]]);
