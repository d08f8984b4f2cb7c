import { useTranslation } from 'react-i18next';
import { Button, Dropdown } from 'antd';
import { TranslationOutlined } from '@ant-design/icons';
import { LOCALES } from '../../constants';
import { switchLanguage } from '../../providers/i18n-provider';

/** Language names are written in their own language, so they are not translated. */
export const LANGUAGE_NAMES: Record<string, string> = { 'en-US': 'English', 'zh-CN': '中文', 'ja-JP': '日本語' };

export function LanguageMenu({ compact = true }: { compact?: boolean }) {
  const { t, i18n } = useTranslation();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [i18n.language],
        items: LOCALES.map((l) => ({ key: l, label: <span data-testid={`language:${l}`}>{LANGUAGE_NAMES[l]}</span> })),
        onClick: ({ key }) => void switchLanguage(key),
      }}
    >
      <Button type="text" icon={<TranslationOutlined />} data-testid="language-menu" aria-label={t('header.language')}>
        {compact ? null : LANGUAGE_NAMES[i18n.language]}
      </Button>
    </Dropdown>
  );
}
