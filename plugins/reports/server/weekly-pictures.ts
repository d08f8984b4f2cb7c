/**
 * The weekly inventory mail's pictures (SPEC task name 5): the weekly screenshot map and marker
 * pages of the console — warehouses and drawn routes (/gps/report/screen/shot/map/other) and
 * carriers at their positions by transport status (/gps/report/screen/shot/marker/other) — drawn
 * by the platform's renderer (ctx.render) as the user who last saved the task (the mail shows
 * what its author may see), attached as PNGs beside the workbook.
 *
 * A picture that cannot be drawn (no browser on the server, no console build, the author gone or
 * locked, the page not drawn in time) does not hold the mail back: it goes with the workbook and a
 * line saying which picture is missing and why; the same line is on the run's record.
 */
import { dayOf, type PluginServerContext, type RenderFailure, type ScheduledRun, type TimeRange, type MailFile } from '@rti/server/plugin-api';
import { K } from './shared';

/** the pages drawn, in the mail's order */
export const WEEKLY_PICTURES = [
  { name: 'map', path: '/gps/report/screen/shot/map/other' },
  { name: 'carriers', path: '/gps/report/screen/shot/marker/other' },
] as const;
/** the call the pages draw from: without it (its plugin not loaded) there is nothing to open */
const SOURCE_CALL = '/map/list';

type Why = RenderFailure | 'noPage';

export function weeklyPictures(ctx: PluginServerContext) {
  return async (run: ScheduledRun, params: { time?: TimeRange }): Promise<{ files: MailFile[]; notes: string[] }> => {
    // a task that keeps its workbook (no recipients) mails nothing to put a picture in
    if (!String(run.task.mailTo ?? '').trim()) return { files: [], notes: [] };
    const day = dayOf(params.time?.to ?? run.now.getTime(), run.timezone);
    const missing = (why: Why, pages: readonly (typeof WEEKLY_PICTURES)[number][] = WEEKLY_PICTURES) =>
      pages.map((p) => run.t(`${K}.picture.missing`, { picture: run.t(`${K}.picture.${p.name}`), reason: run.t(`${K}.picture.why.${why}`) }));
    if (!ctx.http.calls().some((c) => c.path === SOURCE_CALL)) return { files: [], notes: missing('noPage') };
    const author = Number(run.task.updatedBy ?? run.task.createdBy);
    if (!Number.isInteger(author) || author <= 0) return { files: [], notes: missing('noUser') };
    const answers = await ctx.render.consolePng({
      orgId: run.ctx.orgId!,
      userId: author,
      language: run.language,
      pages: WEEKLY_PICTURES.map((p) => ({ path: p.path, query: { title: `${run.t(`${K}.picture.${p.name}`)} ${day}` } })),
    });
    const files: MailFile[] = [];
    const notes: string[] = [];
    answers.forEach((a, i) => {
      const p = WEEKLY_PICTURES[i];
      if (a.ok) files.push({ filename: `weekly-${p.name}-${day}.png`, content: a.png, contentType: 'image/png' });
      else {
        notes.push(...missing(a.reason, [p]));
        ctx.log(`[reports] weekly picture ${p.path} of organisation ${run.ctx.orgId} not drawn (${a.reason}): ${a.detail}`);
      }
    });
    return { files, notes };
  };
}
