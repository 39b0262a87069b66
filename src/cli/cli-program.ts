import { Command, Option } from 'commander';
import { addNamedItem } from '../items/named-item';
import { ROLES, Role } from '../auth/roles';
import { TokenSummary, TokensService } from '../auth/tokens.service';
import { UsersService } from '../auth/users.service';
import { GraphStore } from '../graph/graph-store';

export interface CliServices {
  store: GraphStore;
  tokens: TokensService;
  users: UsersService;
}

/** Opens the services for one command and closes them afterwards. */
export type ServicesRunner = <T>(work: (services: CliServices) => Promise<T>) => Promise<T>;

export type Print = (line: string) => void;

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
  return `\nCommands (run as: npm run cli -- <command>):\n${lines.join('\n')}\n`;
}

function userCommands(withServices: ServicesRunner, print: Print): Command {
  const user = new Command('user').description('users: the acting user of imports (X-User), token owners');
  user
    .command('add')
    .description('create a user (a UserProfile item)')
    .usage('<id> [--name <name>]')
    .argument('<id>', 'user id, e.g. mike')
    .option('--name <name>', 'display name (default: the id)')
    .action(async (id: string, options: NameOption) => {
      await withServices(({ users }) => users.add(id, options.name));
      print(`Created user ${id}`);
    });
  return user;
}

function tokenCommands(withServices: ServicesRunner, print: Print): Command {
  const token = new Command('token').description('bearer tokens for the portal, import and ops interfaces');
  token
    .command('create')
    .description('create a token; it is printed once, alone on the last line')
    .usage('--role <portal|import|ops> [--user <id>] [--name <label>]')
    .addOption(new Option('--role <role>', 'what the token may use').choices(ROLES).makeOptionMandatory())
    .option('--user <id>', 'the user the token is issued to (must exist)')
    .option('--name <label>', 'a label to recognise the token by in `token list`')
    .action(async (options: { role: Role; user?: string; name?: string }) => {
      const created = await withServices(({ tokens }) => tokens.create(options));
      print(`Created ${options.role} token ${created.id}. It is shown only now:`);
      print(created.token);
    });
  token
    .command('list')
    .description('list tokens (never their secrets)')
    .action(async () => {
      const summaries = await withServices(({ tokens }) => tokens.list());
      print(['id', 'role', 'user', 'name', 'created', 'status'].join('\t'));
      summaries.forEach((summary) => print(tokenLine(summary)));
    });
  token
    .command('revoke')
    .description('revoke a token by its id (as `token list` shows it)')
    .usage('<token-id>')
    .argument('<token-id>', 'the token id, not the token itself')
    .action(async (id: string) => {
      await withServices(({ tokens }) => tokens.revoke(id));
      print(`Revoked token ${id}`);
    });
  return token;
}

/** `vocabulary add` and `authority-set add`: the scopes that SKOS and EAC imports need. */
function scopeCommands(
  withServices: ServicesRunner,
  print: Print,
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
      print(`Created ${scope.label} ${id}`);
    });
  return group;
}

/**
 * The command line of DESIGN.md §6, with `more` commands after its own (the import). Its commands
 * are a contract other tools rely on.
 */
export function buildCliProgram(withServices: ServicesRunner, print: Print, more: Command[] = []): Command {
  const program = new Command('cli')
    .description(
      'Manage users, tokens, vocabularies and authority sets of the archival data service, and import files.',
    )
    .usage('<command> [options]')
    .showHelpAfterError()
    .addCommand(userCommands(withServices, print))
    .addCommand(tokenCommands(withServices, print))
    .addCommand(
      scopeCommands(withServices, print, {
        command: 'vocabulary',
        label: 'vocabulary',
        type: 'CvocVocabulary',
        purpose: 'vocabularies: the scopes of SKOS imports',
      }),
    )
    .addCommand(
      scopeCommands(withServices, print, {
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
