import { z } from 'zod';

/**
 * The envelope every event and command travels in (ARCHITECTURE §3).
 * `data` is validated separately against the schema registered for `type` + `version`.
 */
export const envelopeSchema = z.object({
  id: z.uuid(),
  type: z.string().min(1),
  version: z.number().int().positive(),
  occurredAt: z.iso.datetime({ offset: true }),
  source: z.string().min(1),
  correlationId: z.string().min(1),
  data: z.unknown(),
});

export type Envelope<TData = unknown> = Omit<z.infer<typeof envelopeSchema>, 'data'> & { data: TData };
