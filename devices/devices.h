/* devices.h: declarations shared by the files of devices/ (never installed). */
#ifndef CLS_DEVICES_H
#define CLS_DEVICES_H

#include <stddef.h>

#include "device_model.h"
#include "error.h"
#include "files.h"
#include "hash.h"

/* ---------------------------------------------------------------- family_*.c */
/* The families' rule tables (the interface model/device_model.h declares). */
extern const cls_model_rules cls__family_gt200;
extern const cls_model_rules cls__family_fermi;
extern const cls_model_rules cls__family_cpu;
extern const cls_model_rules cls__family_gpu;

/* ---------------------------------------------------------------- tuning.c */
/* The tuning section's family defaults. */
void cls__tuning_gpu(cls_model_params *p);
void cls__tuning_cpu(cls_model_params *p);

/* ---------------------------------------------------------------- defaults.c */
/* A shipped model file built into the library, by file name ("gtx280.json"): its text, NULL
 * when no such file is built in. */
const char *cls__builtin_model(const char *file);
/* The i-th built-in model file's name, NULL past the end. */
const char *cls__builtin_model_at(size_t i);
/* The family's defaults: the values its `defaults` sets, then for every other field the first
 * of its reference files that gives one; fields that may be unknown are 0 and the tables
 * empty.  own[f] (own may be NULL) says which values the family's code set.  A reference that
 * is not built in or does not load, one that repeats a value the code sets, a field nobody
 * gives and defaults that break the schema are programming errors: CLS_ERR_INTERNAL, with a
 * message that names the family, the file and the field. */
cls_status cls__family_defaults(const cls_model_rules *rules, cls_model_params *p,
                                unsigned char *own);

/* ---------------------------------------------------------------- registry.c */
const cls_model_rules *cls__family_find(const char *name);
/* The i-th family, NULL past the end. */
const cls_model_rules *cls__family_at(size_t i);

/* ---------------------------------------------------------------- schema.c */
#define CLS__TABLE_MAX 64 /* entries per table */

/* Whether a JSON section name is one of the schema's sections. */
int cls__section_known(const char *section);
/* The checks below record their failure as the last error (model/error.h), worded to follow
 * the path of what was checked, which the caller puts in front (cls__error_prefix). */
/* Checks a number against field i: "must be ..., got ...". */
cls_status cls__field_check(int i, double v);
/* "a positive integer", "a positive number", ... */
const char *cls__field_kind_text(int i);
/* Checks a table's entries (ascending positive integer bytes, positive ns, non-negative
 * spread): "[2].bytes: must be ...", or ": must have at most ..." for the whole table. */
cls_status cls__table_check(const cls_model_point *pts, size_t n);
/* Checks relations between fields: "memory.min_segment_bytes: must not exceed ...". */
cls_status cls__params_check(const cls_model_params *p);
/* Checks a free-text field, 1..maxlen bytes and no control characters: "must be a text ...". */
cls_status cls__text_check(const char *s, size_t maxlen);
/* Shortest text that reads back as v. */
void cls__fmt_num(char *buf, size_t len, double v);

/* ---------------------------------------------------------------- model.c */
/* A new model with the family's defaults (cls__family_defaults), every defaulted field marked
 * assumed and every unknown-able field unknown (0). */
cls_status cls__model_new(const cls_model_rules *rules, cls_model **m);
/* Replaces *dst by a copy of src (NULL clears); -1 when out of memory. */
int cls__set_text(char **dst, const char *src);
/* Takes clock, compute units, work-group and memory sizes from a live device: all of them
 * (only_assumed 0), or only where the model holds an assumed or unknown value.  Returns how
 * many values changed. */
int cls__model_apply_device(cls_model *m, const cls_device_info *info, int only_assumed);
/* Raises assumed limits that given or device values have overtaken (max_threads_per_cu below
 * max_work_group, ...), so generic defaults never contradict the numbers a file or a device
 * supplied. */
void cls__model_settle(cls_model *m);
/* Deep copy of a table; -1 when out of memory. */
int cls__table_copy(cls__table *dst, const cls_model_point *pts, size_t n);

/* ---------------------------------------------------------------- model_json.c */
/* Parses and validates model JSON; failures say "<label>: $.path: ...". */
cls_status cls__model_parse(const char *text, const char *label, cls_model **m);
/* The same without the family's defaults under the file's values: the model holds what the
 * text gives and 0 elsewhere, and given[f] says which scalars it gives (those it lists as
 * assumed too).  Each value is checked, the relations between fields are not.  How a family
 * reads its reference files. */
cls_status cls__model_parse_given(const char *text, const char *label, cls_model **m,
                                  unsigned char given[CLS__NFIELDS]);
/* JSON text (malloc'ed) or NULL when out of memory. */
char *cls__model_print(const cls_model *m);

/* ---------------------------------------------------------------- model_files.c */
/* Reads and parses a model file; the model's origin is the path. */
cls_status cls__model_parse_file(const char *path, cls_model **m);
/* The model search path: $CLSTENCIL_MODEL_DIR entries, CLS_SRCDIR/devices,
 * CLS_PKGDATADIR/devices (existing directories only).  Free with cls__strv_free. */
char **cls__model_dirs(size_t *count);
/* Sorted "*.json" files of a directory, as full paths.  Free with cls__strv_free. */
char **cls__json_files(const char *dir, size_t *count);
void cls__strv_free(char **v, size_t count);

#endif /* CLS_DEVICES_H */
