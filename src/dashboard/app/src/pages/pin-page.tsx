// The transaction PIN that every purchase carries (docs/spec.md section 5.8): set it with the dashboard
// password, change it with the current PIN or the password. Wrong PINs here count towards the same
// lock as wrong PINs on purchases; wrong passwords towards the sign-in lock.
import { useState } from 'preact/hooks';
import { ApiError, call, type Environment, type Overview } from '../api.js';
import { use_action } from '../use-action.js';
import { use_api } from '../use-api.js';
import { ErrorBanner, Loading, Notice } from '../components/feedback.js';
import { PageHeader } from '../components/layout.js';

const pin_pattern = /^[0-9]{5}$/;

function PinInput({ name, label, value, on_input, autocomplete = 'off' }: { name: string; label: string; value: string; on_input: (value: string) => void; autocomplete?: string }) {
  return (
    <label class="field field-narrow">
      <span>{label}</span>
      <input
        type="password"
        name={name}
        inputMode="numeric"
        pattern="[0-9]{5}"
        maxLength={5}
        minLength={5}
        required
        autocomplete={autocomplete}
        value={value}
        onInput={(e) => on_input(e.currentTarget.value.replace(/\D/g, ''))}
      />
    </label>
  );
}

export function PinPage({ environment }: { environment: Environment }) {
  const overview = use_api<Overview>('/overview', { environment });
  const pin_set = overview.data?.account.pin_set ?? false;
  const [new_pin, set_new_pin] = useState('');
  const [repeat_pin, set_repeat_pin] = useState('');
  const [method, set_method] = useState<'pin' | 'password'>('pin');
  const [current_pin, set_current_pin] = useState('');
  const [password, set_password] = useState('');
  const { busy, error, set_error, run } = use_action();
  const [saved, set_saved] = useState('');

  const verify_with = pin_set ? method : 'password';
  const mismatch = repeat_pin.length === 5 && new_pin !== repeat_pin;

  const submit = async (event: Event) => {
    event.preventDefault();
    set_error(null);
    set_saved('');
    if (!pin_pattern.test(new_pin) || new_pin !== repeat_pin) {
      set_error(new ApiError(0, 'validation.failed', 'Type the same 5-digit PIN twice.'));
      return;
    }
    await run(async () => {
      try {
        const { message } = await call<{ pin_set: boolean }>('POST', '/pin', {
          environment,
          body: verify_with === 'pin' ? { new_pin, current_pin } : { new_pin, password },
        });
        set_saved(message || 'Transaction PIN saved.');
        set_new_pin('');
        set_repeat_pin('');
        set_current_pin('');
        set_password('');
        overview.reload();
      } catch (failure) {
        set_current_pin('');
        set_password('');
        throw failure;
      }
    });
  };

  return (
    <>
      <PageHeader title="Transaction PIN" />
      <ErrorBanner error={overview.error} on_retry={overview.reload} />
      {overview.loading && overview.data === null && <Loading />}
      {overview.data && (
        <form class="card form form-narrow" onSubmit={submit} aria-labelledby="pin-title">
          <h2 id="pin-title">{pin_set ? 'Change your PIN' : 'Set your PIN'}</h2>
          {/* Password managers pair a password with a user name: the account's email, hidden. */}
          <input type="text" name="username" autocomplete="username" value={overview.data.account.email} hidden readOnly />
          <p class="muted">
            {pin_set
              ? 'Your PIN is set. Every purchase through the API needs it, in live and in test.'
              : 'You have no PIN yet. Purchases through the API are refused (pin.not_set) until you set one.'}{' '}
            5 wrong PINs in a row lock purchases for 30 minutes.
          </p>
          {saved && <Notice>{saved}</Notice>}
          <ErrorBanner error={error} />
          <div class="field-row">
            <PinInput name="new_pin" label="New PIN (5 digits)" value={new_pin} on_input={set_new_pin} autocomplete="new-password" />
            <PinInput name="repeat_pin" label="New PIN again" value={repeat_pin} on_input={set_repeat_pin} autocomplete="new-password" />
          </div>
          {mismatch && <p class="form-error">The two PINs differ.</p>}
          {pin_set && (
            <fieldset class="field">
              <legend>Confirm it is you with</legend>
              <div class="choice-row">
                <label class="choice">
                  <input type="radio" name="verify_with" value="pin" checked={method === 'pin'} onChange={() => set_method('pin')} />
                  <span>Current PIN</span>
                </label>
                <label class="choice">
                  <input type="radio" name="verify_with" value="password" checked={method === 'password'} onChange={() => set_method('password')} />
                  <span>Dashboard password</span>
                </label>
              </div>
            </fieldset>
          )}
          {verify_with === 'pin' ? (
            <PinInput name="current_pin" label="Current PIN" value={current_pin} on_input={set_current_pin} />
          ) : (
            <label class="field field-narrow">
              <span>Dashboard password</span>
              <input type="password" name="password" autocomplete="current-password" required value={password} onInput={(e) => set_password(e.currentTarget.value)} />
            </label>
          )}
          <button type="submit" class="button button-primary" disabled={busy}>
            {busy ? 'Saving…' : pin_set ? 'Change PIN' : 'Set PIN'}
          </button>
        </form>
      )}
    </>
  );
}
