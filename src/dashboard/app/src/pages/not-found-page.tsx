// A dashboard address that names no page.
import type { Environment } from '../api.js';
import { EmptyState } from '../components/feedback.js';
import { href_of, Link } from '../router.js';

export function NotFoundPage({ environment }: { environment: Environment }) {
  return (
    <EmptyState title="There is no such page.">
      <Link href={href_of('/', environment)}>Back to the overview</Link>
    </EmptyState>
  );
}
