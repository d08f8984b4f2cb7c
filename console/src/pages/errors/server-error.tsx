import { ErrorPage } from './error-page';

export default function ServerErrorPage() {
  return <ErrorPage status="500" />;
}
