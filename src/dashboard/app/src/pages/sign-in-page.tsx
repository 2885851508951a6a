// Sign-in with the email and password the operator set (or, for an agent, its parent). Wrong passwords count towards the lock
// (5 in a row lock sign-in for 15 minutes); the server's message says how long the lock lasts.
import { useState } from 'preact/hooks';
import { call, type Session } from '../api.js';
import { use_action } from '../use-action.js';
import { ErrorBanner, Notice } from '../components/feedback.js';

/** refused: why the open session shows no desk (the account suspended), in the server's words. */
export function SignInPage({ expired, refused = null, on_signed_in }: { expired: boolean; refused?: string | null; on_signed_in: (session: Session) => void }) {
  const [email, set_email] = useState('');
  const [password, set_password] = useState('');
  const { busy, error, run } = use_action();

  const submit = (event: Event) => {
    event.preventDefault();
    return run(async () => {
      try {
        const { data } = await call<Session>('POST', '/session', { body: { email: email.trim(), password } });
        on_signed_in(data);
      } catch (failure) {
        set_password('');
        throw failure;
      }
    });
  };

  return (
    <div class="signin">
      <form class="card signin-card" onSubmit={submit} aria-labelledby="signin-title">
        <div class="signin-brand">
          <img src="/dashboard/favicon.svg" alt="" width="40" height="40" />
          <span>billvend</span>
        </div>
        <h1 id="signin-title">Sign in to your dashboard</h1>
        {expired && refused === null && error === null && <Notice kind="info">Your session has ended. Sign in again to continue.</Notice>}
        {refused !== null && error === null && <Notice kind="warning">{refused}</Notice>}
        <ErrorBanner error={error} />
        <label class="field">
          <span>Email</span>
          <input type="email" name="email" autocomplete="username" required value={email} onInput={(e) => set_email(e.currentTarget.value)} />
        </label>
        <label class="field">
          <span>Password</span>
          <input type="password" name="password" autocomplete="current-password" required value={password} onInput={(e) => set_password(e.currentTarget.value)} />
        </label>
        <button type="submit" class="button button-primary button-block" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p class="muted small">Your account manager sets up the login for you. After 5 wrong passwords in a row sign-in is locked for 15 minutes.</p>
        <p class="small">
          <a href="/docs/">Read the API documentation</a>
        </p>
      </form>
    </div>
  );
}
