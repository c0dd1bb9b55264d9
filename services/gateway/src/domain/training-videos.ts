import { z } from 'zod';
import type { TrainingVideo } from '@warmline/contracts/catalog';

/**
 * The dashboard's training videos (spec §2: eight embedded videos, seven from one video site
 * and one from another host). They differ per deployment, so they come from configuration:
 * TRAINING_VIDEOS is a list of `Title | https://embed-address` entries separated by `;` or
 * new lines. Unset, there are none: the dashboard says the videos are on their way rather than
 * embedding players of videos that do not exist (issue 17 item 8).
 */

/** One `Title | https://…` entry, or the reason it is not one. */
function parseEntry(text: string): TrainingVideo | string {
  const at = text.lastIndexOf('|');
  const title = text.slice(0, at).trim();
  const embedUrl = text.slice(at + 1).trim();
  const url = z.url({ protocol: /^https$/ }).safeParse(embedUrl);
  if (at < 0 || !title || !url.success) return `'${text}' must be 'Title | https://embed-address'`;
  return { title, embedUrl };
}

/** TRAINING_VIDEOS: unset or empty → no videos. */
export const trainingVideosEnv = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? v.split(/[;\n]/).map((s) => s.trim()).filter(Boolean) : undefined),
  z
    .array(z.string())
    .max(50, 'at most 50 videos')
    .transform((entries, ctx) => {
      const videos: TrainingVideo[] = [];
      for (const text of entries) {
        const parsed = parseEntry(text);
        if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: parsed });
        else videos.push(parsed);
      }
      return videos;
    })
    .default([]),
);
