import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Card, Space, Steps, Tag, Typography } from 'antd';
import { request } from '../providers/http-client';
import { session } from '../lib/session';

export interface ChecklistStep {
  key: string;
  resource: string;
  path: string;
  count: number;
  done: boolean;
}

/**
 * The first-day checklist of the current organisation (`/organization/checklist`): warehouses,
 * carrier codes, devices, gateways, users — each step links to its list and says what is done.
 * Shown on the home page until every step is done; steps the user may not open are not listed.
 */
export function OnboardingChecklist() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data } = useQuery({
    queryKey: ['onboarding-checklist', session.orgId()],
    queryFn: () => request<{ steps: ChecklistStep[]; done: boolean }>('/organization/checklist', {}),
    staleTime: 30_000,
  });
  if (!data || data.done || !data.steps.length) return null;
  const current = data.steps.findIndex((s) => !s.done);
  return (
    <Card size="small" title={t('onboarding.title')} style={{ marginBottom: 12 }} data-testid="onboarding-checklist">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('onboarding.intro', { done: data.steps.filter((s) => s.done).length, total: data.steps.length })}
      </Typography.Paragraph>
      <Steps
        size="small"
        current={current}
        items={data.steps.map((s) => ({
          status: s.done ? 'finish' : 'wait',
          title: (
            <Typography.Link onClick={() => void navigate(s.path)} data-testid={`onboarding-step:${s.key}`}>
              {t(`onboarding.step.${s.key}`)}
            </Typography.Link>
          ),
          description: (
            <Space size={4}>{s.done ? <Tag color="success">{t('onboarding.count', { count: s.count })}</Tag> : <Tag>{t('onboarding.todo')}</Tag>}</Space>
          ),
        }))}
      />
    </Card>
  );
}
