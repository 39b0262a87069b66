import { SERVICE_LINKS } from './index.controller';

/**
 * How people run the command line from the project folder: the package's `bin`, which npx finds
 * in the project itself; stdout carries only the command's own output (`npm run` adds its banner).
 */
export const CLI_NAME = 'archive-cli';
export const CLI_COMMAND = `npx ${CLI_NAME}`;

/**
 * The line the service logs once it listens: where, where the console and the API docs are, and,
 * while no token is active, the command that makes one for the console.
 */
export function startGuide(baseUrl: string, activeTokens: boolean): string {
  const line =
    `Listening on ${baseUrl}: the console at ${baseUrl}${SERVICE_LINKS.console}, ` +
    `the API docs at ${baseUrl}${SERVICE_LINKS.docs}`;
  if (activeTokens) return line;
  return `${line}. No token exists yet; make one to sign in to the console: ${CLI_COMMAND} token create --role ops --name console`;
}
