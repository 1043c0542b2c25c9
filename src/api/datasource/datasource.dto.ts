import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject } from 'class-validator';

export class DatasourceRequest {
  @ApiProperty({
    description:
      'One datasource in the shape of a `datasources` entry of the config file: id, type, connection, and optionally ' +
      'description, limits, preferred_tables, sample_questions, instructions, glossary, required',
    // The SQLite file `npm run seed:examples` creates (data/inventory.sqlite, from the working directory).
    example: {
      id: 'inventory',
      type: 'sqlite',
      connection: { path: './data/inventory.sqlite' },
      description: 'Stock levels and purchase orders of the warehouses',
    },
    type: 'object',
    additionalProperties: true,
  })
  @IsObject()
  config!: Record<string, unknown>;
}

export class DatasourceResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty() message!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) datasource_id?: string | null;
}

export class SchemaCommentDto {
  @ApiProperty({
    description: 'The table, as `schema.table` where the database has schemas',
    example: 'orders',
  })
  table!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "The column, or null for the table's own comment",
    example: 'total_amount',
  })
  column!: string | null;
  @ApiProperty({
    description: 'The comment as the database holds it',
    example: 'Sum of the lines plus shipping, in USD',
  })
  comment!: string;
}

export class ListedDatasourceDto {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: ['duckdb', 'sqlite', 'postgres', 'mysql'] }) type!: string;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ enum: ['ready', 'failed', 'unchecked'] }) status!: string;
  @ApiProperty({ type: [String], example: ['supports_sql'] }) capabilities!: string[];
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Connection with every secret masked as ***',
  })
  connection!: Record<string, unknown>;
  @ApiProperty({ nullable: true, type: String, description: 'Why the datasource failed, or null' })
  reason!: string | null;
  @ApiPropertyOptional({
    type: [SchemaCommentDto],
    description:
      "The database's own comments (PostgreSQL and DuckDB COMMENT ON, MySQL/MariaDB table and column comments; SQLite has none) " +
      "on the tables and columns the caller's roles may read. Absent until the datasource has been introspected.",
  })
  comments?: SchemaCommentDto[];
}

export class DatasourceList {
  @ApiProperty({ type: [ListedDatasourceDto] }) datasources!: ListedDatasourceDto[];
}
