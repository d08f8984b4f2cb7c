import { useNavigate } from '../lib/navigate';
import { useTranslation } from 'react-i18next';
import { Card, Col, Empty, Row, Typography } from 'antd';
import { flattenMenu } from '../lib/menu';
import { useShell } from '../providers/shell-context';
import { OnboardingChecklist } from '../components/onboarding-checklist';

/** Landing page: who is signed in where, and every page they may open, by menu group. */
export default function HomePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user, sideMenu } = useShell();
  const groups = sideMenu.filter((g) => g.children?.length);
  return (
    <div className="home-page" data-testid="home-page">
      <Typography.Title level={4}>{t('home.welcome', { name: user.realName || user.username || '' })}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('home.organization', { name: user.orgName || user.loginOrgName || '' })}</Typography.Paragraph>
      <OnboardingChecklist />
      {groups.length === 0 && <Empty description={t('home.noPages')} />}
      <Row gutter={[16, 16]}>
        {groups.map((g) => (
          <Col key={g.key} xs={24} md={12} xl={8}>
            <Card size="small" title={t(g.label)}>
              {flattenMenu(g.children ?? []).map((n) => (
                <Typography.Link key={n.path} className="home-link" onClick={() => navigate(n.path)}>
                  {t(n.label)}
                </Typography.Link>
              ))}
            </Card>
          </Col>
        ))}
      </Row>
    </div>
  );
}
