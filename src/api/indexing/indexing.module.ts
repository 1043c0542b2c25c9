import { Module } from '@nestjs/common';
import { IndexingController } from './indexing.controller';

@Module({ controllers: [IndexingController] })
export class IndexingModule {}
