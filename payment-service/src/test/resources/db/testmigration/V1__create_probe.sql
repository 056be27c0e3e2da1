create table probe (
    id   bigint primary key,
    note text   not null
);
