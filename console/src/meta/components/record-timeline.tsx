import { Collapse, Empty, Timeline, Typography } from 'antd';
import { useEffect, useState, type FC } from 'react';
import { apiCode, resourceTransitions, type ResourceDef } from '@rti/metadata/browser';
import { request } from '../../providers/http-client';
import { useOptionalShell } from '../../providers/shell-context';
import { formatDate } from '../lib/format';
import { timelinePath } from '../lib/step-guard';
import { useMetaT } from '../hooks/use-meta';

/** One entry of `<prefix>/timeline` (server resources/timeline.ts), already in the user's language. */
export interface TimelineEntry {
  at: string;
  user: string;
  step: string;
  label: string;
  from: string | null;
  to: string | null;
  cause?: { resource: string; step: string; ids: number[]; label: string };
}

/** Whether a detail page shows the timeline: the resource has steps and the user may call it. */
export const showsTimeline = (res: ResourceDef, has: (code: string) => boolean): boolean =>
  resourceTransitions(res).length > 0 && has(apiCode(timelinePath(res)));

/**
 * Who ran which step of the record when, from the operation log: a collapsible antd Timeline,
 * closed at first with the count and the last step in its header. `version` (the record's
 * updatedAt) asks again after a step.
 */
export const RecordTimeline: FC<{ resource: ResourceDef; id: string | number; version?: unknown }> = ({ resource, id, version }) => {
  const { t } = useMetaT();
  const [entries, setEntries] = useState<TimelineEntry[] | null>(null);
  useEffect(() => {
    let live = true;
    request<TimelineEntry[]>(timelinePath(resource), { id: Number(id) })
      .then((list) => live && setEntries(Array.isArray(list) ? list : []))
      .catch(() => live && setEntries([]));
    return () => {
      live = false;
    };
  }, [resource, id, version]);

  const last = entries?.length ? entries[entries.length - 1] : undefined;
  const header = (
    <span>
      {t('meta.timeline')}
      {last && (
        <Typography.Text type="secondary" style={{ marginLeft: 12 }} data-testid="meta-timeline-summary">
          {t('meta.timelineCount', { count: entries!.length, label: last.label, user: last.user })}
        </Typography.Text>
      )}
    </span>
  );
  const body = !entries ? null : entries.length === 0 ? (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('meta.timelineEmpty')} />
  ) : (
    <Timeline
      items={entries.map((e, i) => ({
        key: `${e.at}-${i}`,
        children: (
          <div data-testid="meta-timeline-entry">
            <Typography.Text strong>{e.label}</Typography.Text>
            {e.from !== null || e.to !== null ? (
              <Typography.Text type="secondary">{`  ${e.from ?? ''}${e.from !== null && e.to !== null ? ' → ' : ''}${e.to ?? ''}`}</Typography.Text>
            ) : null}
            <div>
              <Typography.Text>{e.user}</Typography.Text>
              <Typography.Text type="secondary">{`  ${formatDate(e.at, true)}`}</Typography.Text>
            </div>
            {e.cause && (
              <Typography.Text type="secondary" italic>
                {e.cause.label}
              </Typography.Text>
            )}
          </div>
        ),
      }))}
    />
  );
  return (
    <Collapse
      size="small"
      style={{ marginTop: 16 }}
      data-testid="meta-timeline"
      items={[{ key: 'timeline', label: header, children: body, forceRender: true }]}
    />
  );
};

/** The timeline on a generated detail page, when the resource has steps and the user may read it. */
export const DetailTimeline: FC<{ resource: ResourceDef; id: string | number | undefined; version?: unknown }> = ({ resource, id, version }) => {
  const access = useOptionalShell()?.access;
  if (id === undefined || !showsTimeline(resource, (c) => Boolean(access?.has(c)))) return null;
  return <RecordTimeline resource={resource} id={id} version={version} />;
};
