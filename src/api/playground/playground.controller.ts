/**
 * The playground page at /playground (and / pointing to it), its built assets, and the small
 * context route the page reads first. Every file comes from this process: no CDN.
 */
import { Controller, Get, Param, Redirect, Req, Res, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { DatasourceRegistry } from '../../engine/datasources/registry';
import { ENGINE_CONFIG, type EngineConfig } from '../../engine/engine-config';
import { NotFoundError } from '../../engine/errors';
import { pageContext, type PageContext } from './page-context';
import { assetPath, webDir } from './web-assets';

@ApiExcludeController()
@Controller()
export class PlaygroundController {
  constructor(
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
    private readonly datasources: DatasourceRegistry,
  ) {}

  @Get()
  @Redirect('/playground', 302)
  root(): void {}

  @Get('playground')
  page(@Res() res: Response): void {
    this.send(res, 'index.html', 'no-cache');
  }

  @Get('playground/context')
  context(@Req() req: Request): PageContext {
    return pageContext({ config: this.config, datasources: this.datasources }, req);
  }

  @Get('playground/assets/:file')
  asset(@Param('file') file: string, @Res() res: Response): void {
    this.send(res, file, 'no-cache');
  }

  private send(res: Response, name: string, cache: string): void {
    const dir = webDir();
    const path = assetPath(dir, name);
    if (!path) {
      throw new NotFoundError(
        name === 'index.html'
          ? `the playground page is not built (no ${dir}/index.html): run npm run build`
          : `no playground asset named '${name.slice(0, 100)}'`,
      );
    }
    res.setHeader('Cache-Control', cache);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.sendFile(path);
  }
}
