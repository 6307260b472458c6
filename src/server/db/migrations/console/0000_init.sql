CREATE SCHEMA "console";
