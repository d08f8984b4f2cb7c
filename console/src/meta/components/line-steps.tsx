/**
 * A document's line steps on its ticked lines (metadata line `transitions` with a call): one
 * button per step whose code the user holds, above the lines while the header is in its `open`
 * status group; one call with the ticked ids, all or nothing. A refusal names the lines (by
 * their title: the serial) and why, in the user's language, and stays shown until the next try.
 * Steps that ask for inputs keep their own screens.
 */
import { useState, type FC } from 'react';
import { Alert, App, Button } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { transitionLabelKey, type ResolvedTransition, type ResourceDef } from '@rti/metadata/browser';
import { request } from '../../providers/http-client';
import { useMetaT } from '../hooks/use-meta';
import { useTransitions } from '../hooks/use-transitions';
import { headerOpen } from '../lib/scan';

/** How many lines a step call moved: the rows it answers, else all that were asked. */
export const movedCount = (answer: unknown, asked: number): number => (Array.isArray(answer) ? answer.length : asked);

/** The line steps a user may run on ticked lines of this header now. */
export function useLineSteps(header: ResourceDef, record: Record<string, unknown>, lines: ResourceDef): ResolvedTransition[] {
  const steps = useTransitions(lines).filter((s) => s.from && !s.inputs?.length);
  return headerOpen(header, record) ? steps : [];
}

export const LineStepButtons: FC<{
  steps: ResolvedTransition[];
  selectedIds: Array<number | string>;
  clearSelection: () => void;
  refresh: () => void;
}> = ({ steps, selectedIds, clearSelection, refresh }) => {
  const { t } = useMetaT();
  const { message } = App.useApp();
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();

  const run = async (step: ResolvedTransition) => {
    const ids = selectedIds.map(Number);
    setBusy(step.name);
    setError(undefined);
    try {
      const answer = await request<unknown>(step.path, { ids });
      void message.success(t('meta.lineStepDone', { step: t(transitionLabelKey(step)), count: movedCount(answer, ids.length) }));
      clearSelection();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(undefined);
      refresh();
    }
  };

  return (
    <>
      {steps.map((s) => (
        <Button
          key={s.name}
          type="primary"
          icon={<CheckOutlined />}
          loading={busy === s.name}
          disabled={!selectedIds.length || Boolean(busy)}
          onClick={() => void run(s)}
          data-testid={`line-step-${s.name}`}
        >
          {t('meta.lineStepSelected', { step: t(transitionLabelKey(s)), count: selectedIds.length })}
        </Button>
      ))}
      {error && <Alert type="error" showIcon closable message={error} onClose={() => setError(undefined)} data-testid="line-step-error" />}
    </>
  );
};
