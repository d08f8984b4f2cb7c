import { Link, useLocation, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Breadcrumb } from 'antd';
import { BREADCRUMB_MAX_WIDTH } from '../../constants';
import { matchRoute } from '../../lib/routes';
import { useShell } from '../../providers/shell-context';
import { pageTitle } from '../../routes/page-title';
import { useRecordTitles } from '../../providers/record-titles';
import { useSavedTabTitle } from '../tabs/tabs-context';

/** Menu group › resource › screen, at most 560 px wide (SPEC §9). */
export function AppBreadcrumb() {
  const { t } = useTranslation();
  const { routes, meta } = useShell();
  const { pathname } = useLocation();
  useParams();
  // the record's title replaces "#id" once its row arrives
  useRecordTitles();
  const saved = useSavedTabTitle(pathname);
  const m = matchRoute(pathname, routes);
  if (!m) return null;
  const group = meta.menu.groups.find((g) => g.key === m.route.group);
  const items: { title: React.ReactNode }[] = [];
  if (group) items.push({ title: t(group.label) });
  if (m.route.resource && m.route.screen !== 'list') {
    items.push({ title: <Link to={m.route.resource.route}>{t(m.route.title)}</Link> });
  }
  items.push({ title: pageTitle(m.route, m.params, t, saved) });
  return <Breadcrumb className="app-breadcrumb" style={{ maxWidth: BREADCRUMB_MAX_WIDTH }} items={items} data-testid="breadcrumb" />;
}
