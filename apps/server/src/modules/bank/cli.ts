import { parseArgs } from 'node:util';
import { openCliDatabase, runCli } from '../../db/cli-database';
import { systemClock } from '../../lib/clock';
import { type SandboxAccountState, sandboxAccount, sandboxDeposits, setSandboxAccount } from './sandbox-bank';

const USAGE =
  'usage: npm run bank -- show <bank> <account>\n' +
  '       npm run bank -- set <bank> <account> [--balance KRW] [--state open|closed|unavailable]\n' +
  '       npm run bank -- deposits <bank> <account>   (1원 인증 deposits, newest first)';
const COMMANDS: readonly string[] = ['show', 'set', 'deposits'];
const STATES: readonly string[] = ['open', 'closed', 'unavailable'];

/**
 * `npm run bank -- …`: reads or sets a sandbox bank account, to try autopay's outcomes by hand, and shows its
 * 1원 인증 deposits (the depositor name carries the code), as the account holder's bank app would.
 */
runCli(async () => {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { balance: { type: 'string' }, state: { type: 'string' } },
  });
  const [command, bank, account] = positionals;
  if (!bank || !account || !command || !COMMANDS.includes(command)) throw new Error(USAGE);
  const balance = values.balance === undefined ? undefined : Number(values.balance);
  if (balance !== undefined && !(Number.isSafeInteger(balance) && balance >= 0)) {
    throw new Error('--balance must be a whole number of KRW, 0 or more');
  }
  if (values.state !== undefined && !STATES.includes(values.state)) throw new Error(USAGE);
  const database = await openCliDatabase();
  try {
    if (command === 'deposits') {
      for (const deposit of await sandboxDeposits(database.db, bank, account)) {
        console.log(`${deposit.at.toISOString()} ${deposit.amount}원 입금자명 ${deposit.depositorName}`);
      }
      return;
    }
    const row =
      command === 'show'
        ? await sandboxAccount(database.db, bank, account)
        : await setSandboxAccount(
            database.db,
            bank,
            account,
            {
              balance,
              state: values.state as SandboxAccountState | undefined,
            },
            systemClock.now(),
          );
    console.log(`${bank} ${account}: ${row.balance.toLocaleString('ko-KR')}원 (${row.state})`);
  } finally {
    await database.close();
  }
});
