/**
 * One guard for the three access levels of spec 5: `none` (health, listings), `any` (query and
 * result routes need some role), `admin` (role in policies.admin_roles; with no role source
 * configured, loopback clients only). The resolved roles are attached to the request for handlers.
 */
import {
  applyDecorators,
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiForbiddenResponse, ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { ENGINE_CONFIG, type EngineConfig } from '../../engine/engine-config';
import type { CallerAttributes } from '../../engine/policy/row-filters';
import { resolveAttributes } from './caller-attributes';
import { ErrorBody } from './error-body.dto';
import { EngineError } from '../../engine/errors';
import {
  type CallerRoles,
  isLoopback,
  resolveRoles,
  ROLE_KEYS_HINT,
  roleSourceConfigured,
} from './role-resolver';

export type Access = 'any' | 'admin';

/** The OpenAPI security scheme of `api.role_header`; buildOpenApi keeps it only when that source is configured. */
export const ROLE_HEADER_SCHEME = 'role_header';
const ACCESS = 'nl2sql:access';

export interface RequestWithRoles extends Request {
  caller?: CallerRoles & { readonly attributes?: CallerAttributes };
}

/** The route needs a role from any source (401 otherwise). */
export const AnyRole = () =>
  applyDecorators(
    SetMetadata(ACCESS, 'any'),
    UseGuards(RolesGuard),
    ApiSecurity(ROLE_HEADER_SCHEME),
    ApiUnauthorizedResponse({
      description: 'No role (ROLE_REQUIRED): set ' + ROLE_KEYS_HINT,
      type: ErrorBody,
    }),
  );

/** The route needs an admin role (401 without a role, 403 with roles none of which is admin). */
export const AdminOnly = () =>
  applyDecorators(
    SetMetadata(ACCESS, 'admin'),
    UseGuards(RolesGuard),
    ApiSecurity(ROLE_HEADER_SCHEME),
    ApiUnauthorizedResponse({ description: 'No role (ROLE_REQUIRED)', type: ErrorBody }),
    ApiForbiddenResponse({
      description:
        'Role not in policies.admin_roles, or a non-loopback client with no role source configured (ROLE_FORBIDDEN)',
      type: ErrorBody,
    }),
  );

@Injectable()
export class RolesGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const access = this.reflector.getAllAndOverride<Access | undefined>(ACCESS, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!access) return true;
    const req = context.switchToHttp().getRequest<RequestWithRoles>();
    const api = this.config.api;
    const caller = resolveRoles(api, req);
    req.caller = caller;
    if (access === 'admin' && !roleSourceConfigured(api)) {
      if (isLoopback(req.socket.remoteAddress)) return true;
      throw new EngineError(
        'ROLE_FORBIDDEN',
        `admin routes answer only loopback clients when no role source is configured; set ${ROLE_KEYS_HINT} (and policies.admin_roles)`,
      );
    }
    if (!caller.roles) {
      throw new EngineError(
        'ROLE_REQUIRED',
        `no role on this request; the service takes roles from ${ROLE_KEYS_HINT}`,
      );
    }
    if (access === 'admin') {
      const admins = this.config.policies.admin_roles;
      if (!caller.roles.some((r) => admins.includes(r))) {
        throw new EngineError(
          'ROLE_FORBIDDEN',
          `this route needs one of the roles in policies.admin_roles (${admins.join(', ')})`,
        );
      }
    }
    // After the role checks, so a request without a role is a 401 whatever its attributes.
    req.caller = { ...caller, attributes: resolveAttributes(api, req) };
    return true;
  }
}
