/**
 * A declared screen of one record (ConsolePlugin `recordPages`, see RecordPage): the record of
 * `?id=` read through the resource's base call, its title, header fields and a way back to its
 * detail page, then the generated lines or the plugin's panel — the frame every such page
 * needs, so a plugin writes at most the panel.
 */
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Result, Spin } from 'antd';
import { Suspense, lazy, useCallback, useEffect, useMemo, useState, type ComponentType, type FC } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { resourceApiPrefix, type ResourceDef } from '@rti/metadata/browser';
import type { RecordPage, RecordPanelProps, RowActionProps } from '../../plugin-contract';
import { request } from '../../providers/http-client';
import { useMetadata, useMetaT } from '../hooks/use-meta';
import { FieldRenderer } from '../components/field-renderer';
import { DocumentLinesView } from '../components/document-lines';
import { NavButton, detailPath } from '../components/row-actions';
import { linesEditable } from '../lib/document-lines';
import { recordName } from '../lib/record-name';

type Row = Record<string, unknown>;

/** `?id=` as a record id, or null when it is missing or not one */
export function recordIdOf(search: URLSearchParams): number | null {
  const raw = search.get('id');
  if (!raw || !/^[1-9]\d{0,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n <= 2 ** 31 - 1 ? n : null;
}

/** whether the page's panel applies to the record now */
const applies = (def: RecordPage, res: ResourceDef, record: Row): boolean =>
  !def.whileLinesOpen || (!!res.children?.[0] && linesEditable(res.children[0], record));

// one lazy component per panel for the life of the page
const panels = new Map<RecordPage['panel'], ComponentType<RecordPanelProps>>();
const panelOf = (def: RecordPage): ComponentType<RecordPanelProps> | null => {
  if (def.panel === 'lines') return null;
  let C = panels.get(def.panel);
  if (!C) panels.set(def.panel, (C = lazy(def.panel)));
  return C;
};

export const RecordScreen: FC<{ def: RecordPage }> = ({ def }) => {
  const { t, fieldLabel } = useMetaT();
  const navigate = useNavigate();
  const { resources, enums } = useMetadata();
  const res = resources[def.resource];
  const [search] = useSearchParams();
  const id = recordIdOf(search);
  const [record, setRecord] = useState<Row | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [seq, setSeq] = useState(0);
  useEffect(() => {
    if (id === null || !res) return;
    let live = true;
    request<Row>(resourceApiPrefix(res), { id })
      .then((r) => live && (setRecord(r), setError(null)))
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [id, res, seq]);
  // after the panel changed something: the header's roll-ups and status again
  const refresh = useCallback(() => setSeq((s) => s + 1), []);
  const Panel = useMemo(() => panelOf(def), [def]);

  if (!res || id === null || error)
    return (
      <Result
        status="404"
        title={t('meta.recordPage.missing')}
        subTitle={error ?? undefined}
        extra={res && <Button onClick={() => void navigate(res.route)}>{t('meta.recordPage.toList')}</Button>}
      />
    );
  if (!record) return <Spin style={{ display: 'block', margin: 48 }} />;
  const name = recordName(res, record);
  const child = res.children?.[0];
  // the field that freezes the lines (a status), as the "not now" note names it
  const freezing = child?.editableWhen && res.fields.find((f) => f.name === child.editableWhen!.field);
  const frozenAs = freezing && (enums[freezing.enum ?? ''] ?? []).find((e) => String(e.value) === String(record[freezing.name]));
  const statusText = frozenAs ? t(frozenAs.label) : String((freezing && record[freezing.name]) ?? '');
  const lines = child && resources[child.resource];
  return (
    <Card
      data-testid={`record-page-${def.id}`}
      title={t(def.heading ?? def.title, { name })}
      extra={
        <NavButton to={detailPath(res, id)} icon={<ArrowLeftOutlined />} testId="record-page-back" size="middle" type="default">
          {t('meta.recordPage.back')}
        </NavButton>
      }
    >
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, md: 4 }}
        style={{ marginBottom: 16 }}
        items={def.fields
          .map((n) => res.fields.find((f) => f.name === n))
          .filter((f) => f !== undefined)
          .map((f) => ({
            key: f.name,
            label: fieldLabel(f),
            children: (
              <span data-testid={`record-page-field-${f.name}`}>
                <FieldRenderer field={f} record={record} variant="detail" />
              </span>
            ),
          }))}
      />
      {!applies(def, res, record) ? (
        <Alert type="info" showIcon message={t('meta.recordPage.notNow', { name, status: statusText })} data-testid="record-page-not-now" />
      ) : Panel ? (
        <Suspense fallback={<Spin />}>
          <Panel resource={res} record={record} refresh={refresh} />
        </Suspense>
      ) : (
        child &&
        lines && (
          <DocumentLinesView
            parent={res}
            def={child}
            child={lines}
            parentId={id}
            header={record}
            frozen={false}
            adding={def.adding ?? false}
            onChanged={refresh}
          />
        )
      )}
    </Card>
  );
};

/** The detail page's link to a record page, while its panel applies to the record. */
export const RecordPageButton: FC<RowActionProps & { def: RecordPage }> = ({ def, record }) => {
  const { t } = useMetaT();
  const res = useMetadata().resources[def.resource];
  if (!res || record.id == null || !applies(def, res, record) || !def.button) return null;
  return (
    <NavButton to={`${def.path}?id=${String(record.id)}`} testId={`record-page-open-${def.id}`} size="middle" type="default">
      {t(def.button.label)}
    </NavButton>
  );
};
