import { useTranslation } from 'react-i18next';
import { Button, Dropdown } from 'antd';
import { TranslationOutlined } from '@ant-design/icons';
import { LOCALES } from '../../constants';
import { switchLanguage } from '../../providers/i18n-provider';
import { LANGUAGE_NAMES } from '../../lib/language-names';

/** Header language menu; choosing another language reloads the console in it. */
export function LanguageMenu() {
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
      <Button type="text" icon={<TranslationOutlined />} data-testid="language-menu" aria-label={t('header.language')} />
    </Dropdown>
  );
}
