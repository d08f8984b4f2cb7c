import '@ant-design/v5-patch-for-react-19';
import { createRoot } from 'react-dom/client';
import { captureGlobalErrors } from './lib/error-log';
import { isLoginPath, session } from './lib/session';
import { initI18n } from './i18n';
import { appState, loadAppState, resetAppState } from './providers/app-state';
import { App } from './App';
import './styles.css';

captureGlobalErrors();
// A signed-in load starts the session (identity, access, metadata, plugins, then the page's
// chunk) and the layout chunk now, beside i18n and React's first render, not after mount.
const signedIn = Boolean(session.token()) && !isLoginPath(location.pathname);
if (signedIn) {
  void loadAppState();
  void import('./components/layout/main-layout').catch(() => undefined);
}
void initI18n().then(() => {
  // a failure seen before the texts were there is asked again, to show it in the user's language
  if (appState.get().status === 'error') resetAppState();
  createRoot(document.getElementById('root')!).render(<App />);
});
