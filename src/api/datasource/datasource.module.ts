import { Module } from '@nestjs/common';
import { DatasourceController } from './datasource.controller';

@Module({ controllers: [DatasourceController] })
export class DatasourceModule {}
