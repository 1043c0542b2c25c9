import { Module } from '@nestjs/common';
import { VerifiedQueriesController } from './verified-queries.controller';

@Module({ controllers: [VerifiedQueriesController] })
export class VerifiedQueriesModule {}
