import '@ant-design/v5-patch-for-react-19';
import { createRoot } from 'react-dom/client';
import { captureGlobalErrors } from './lib/error-log';
import { initI18n } from './i18n';
import { App } from './App';
import './styles.css';

captureGlobalErrors();
void initI18n().then(() => {
  createRoot(document.getElementById('root')!).render(<App />);
});
