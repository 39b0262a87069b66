/** Token roles (README, "Users and tokens"): the read API, the import interface, and operators' endpoints. */
export const ROLES = ['portal', 'import', 'ops'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
