import { Command, Option } from 'commander';
import { addNamedItem } from '../named-items/named-item';
import { ROLES, Role } from '../auth/roles';
import { TokenSummary, TokensService } from '../auth/tokens.service';
import { UsersService } from '../auth/users.service';
import { GraphStore } from '../graph/graph-store';
import { CLI_COMMAND, CLI_NAME } from '../start/start-guide';
import { CliOutput } from './cli-output';

export interface CliServices {
  store: GraphStore;
  tokens: TokensService;
  users: UsersService;
}

/** Opens the services for one command and closes them afterwards. */
export type ServicesRunner = <T>(work: (services: CliServices) => Promise<T>) => Promise<T>;

interface NameOption {
  name?: string;
}

function tokenLine(token: TokenSummary): string {
  const status = token.revoked ? 'revoked' : 'active';
  return [token.id, token.role, token.user ?? '-', token.name ?? '-', token.created, status].join('\t');
}

/** A command's usage, without the `[options]` commander shows when `--help` is its only option. */
function usageOf(command: Command): string {
  const usage = command.usage();
  return usage === '[options]' ? '' : usage;
}

/** The full command lines, generated from the program so that help and contract never drift. */
function commandList(program: Command): string {
  const lines = program.commands.flatMap((group) =>
    group.commands.length === 0
      ? [`  ${group.name()} ${usageOf(group)}`.trimEnd()]
      : group.commands.map((command) => `  ${group.name()} ${command.name()} ${usageOf(command)}`.trimEnd()),
  );
  return (
    `\nCommands (run as: ${CLI_COMMAND} <command>, or npm run -s cli -- <command> to build first):\n` +
    `${lines.join('\n')}\n\n` +
    'On a terminal, results are lines to read; otherwise (a pipe, a file) each is one JSON document on\n' +
    'stdout, and notices and progress go to stderr.\n'
  );
}

function userCommands(withServices: ServicesRunner, out: CliOutput): Command {
  const user = new Command('user').description('users: the acting user of imports (X-User), token owners');
  user
    .command('add')
    .description('create a user (a UserProfile item)')
    .usage('<id> [--name <name>]')
    .argument('<id>', 'user id, e.g. mike')
    .option('--name <name>', 'display name (default: the id)')
    .action(async (id: string, options: NameOption) => {
      await withServices(({ users }) => users.add(id, options.name));
      out.result([`Created user ${id}`], { id, name: options.name ?? id });
    });
  return user;
}

function tokenCommands(withServices: ServicesRunner, out: CliOutput): Command {
  const token = new Command('token').description('bearer tokens for the portal, import and ops interfaces');
  token
    .command('create')
    .description(
      'create a token; it is shown once (on a terminal alone on the last line, else as token in the JSON)',
    )
    .usage('--role <portal|import|ops> [--user <id>] [--name <label>]')
    .addOption(new Option('--role <role>', 'what the token may use').choices(ROLES).makeOptionMandatory())
    .option('--user <id>', 'the user the token is issued to (must exist)')
    .option('--name <label>', 'a label to recognise the token by in `token list`')
    .action(async (options: { role: Role; user?: string; name?: string }) => {
      const created = await withServices(({ tokens }) => tokens.create(options));
      out.result(
        [`Created ${options.role} token ${created.id}. It is shown only now:`, created.token],
        {
          id: created.id,
          role: options.role,
          user: options.user ?? null,
          name: options.name ?? null,
          token: created.token,
        },
        `Created ${options.role} token ${created.id}; the token, in the JSON on stdout, is shown only now`,
      );
    });
  token
    .command('list')
    .description('list tokens (never their secrets)')
    .action(async () => {
      const summaries = await withServices(({ tokens }) => tokens.list());
      out.result(
        [['id', 'role', 'user', 'name', 'created', 'status'].join('\t'), ...summaries.map(tokenLine)],
        summaries,
      );
    });
  token
    .command('revoke')
    .description('revoke a token by its id (as `token list` shows it)')
    .usage('<token-id>')
    .argument('<token-id>', 'the token id, not the token itself')
    .action(async (id: string) => {
      await withServices(({ tokens }) => tokens.revoke(id));
      out.result([`Revoked token ${id}`], { id, revoked: true });
    });
  return token;
}

/** `vocabulary add` and `authority-set add`: the scopes that SKOS and EAC imports need. */
function scopeCommands(
  withServices: ServicesRunner,
  out: CliOutput,
  scope: { command: string; label: string; type: 'CvocVocabulary' | 'AuthoritativeSet'; purpose: string },
): Command {
  const group = new Command(scope.command).description(scope.purpose);
  group
    .command('add')
    .description(`create the ${scope.label} <id> (a ${scope.type} item)`)
    .usage('<id> [--name <name>]')
    .argument('<id>', `${scope.label} id`)
    .option('--name <name>', 'display name (default: the id)')
    .action(async (id: string, options: NameOption) => {
      await withServices(({ store }) => addNamedItem(store, scope.type, id, options.name));
      out.result([`Created ${scope.label} ${id}`], { id, type: scope.type, name: options.name ?? id });
    });
  return group;
}

/**
 * The command line (README, "Users and tokens"), with `more` commands after its own (the import). Its commands
 * are a contract other tools rely on.
 */
export function buildCliProgram(withServices: ServicesRunner, out: CliOutput, more: Command[] = []): Command {
  const program = new Command(CLI_NAME)
    .description(
      'Manage users, tokens, vocabularies and authority sets of the archival data service, and import files.',
    )
    .usage('<command> [options]')
    .showHelpAfterError()
    // The commands are listed once, with their options, by `commandList`.
    .configureHelp({ visibleCommands: () => [] })
    .addCommand(userCommands(withServices, out))
    .addCommand(tokenCommands(withServices, out))
    .addCommand(
      scopeCommands(withServices, out, {
        command: 'vocabulary',
        label: 'vocabulary',
        type: 'CvocVocabulary',
        purpose: 'vocabularies: the scopes of SKOS imports',
      }),
    )
    .addCommand(
      scopeCommands(withServices, out, {
        command: 'authority-set',
        label: 'authority set',
        type: 'AuthoritativeSet',
        purpose: 'authority sets: the scopes of EAC imports',
      }),
    );
  for (const command of more) program.addCommand(command);
  program.addHelpText('after', () => commandList(program));
  return program;
}
