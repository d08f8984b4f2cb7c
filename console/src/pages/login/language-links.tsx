import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { LOCALES } from '../../constants';
import { switchLanguage } from '../../providers/i18n-provider';
import { LANGUAGE_NAMES } from '../../lib/language-names';

/** Language switch of the login page: plain links, switched in place (no reload). */
export function LanguageLinks() {
  const { t, i18n } = useTranslation();
  return (
    <nav className="language-links" data-testid="language-menu" aria-label={t('header.language')}>
      {LOCALES.map((l) => (
        <Button
          key={l}
          type="link"
          size="small"
          className={l === i18n.language ? 'active' : undefined}
          data-testid={`language:${l}`}
          onClick={() => void switchLanguage(l)}
        >
          {LANGUAGE_NAMES[l]}
        </Button>
      ))}
    </nav>
  );
}
