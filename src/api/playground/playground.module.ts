import { Module } from '@nestjs/common';
import { PlaygroundController } from './playground.controller';

/** The browser playground (issue 17): a page over the public routes, served with its assets. */
@Module({ controllers: [PlaygroundController] })
export class PlaygroundModule {}
