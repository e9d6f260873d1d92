/* models_opt.c - --models in the registry's spelling (models_opt.h). */
#include "models_opt.h"

#include "model.h"
#include "names_opt.h"

int ss_models_opt_parse(const struct ss_opt_set *set, int id, const char *arg,
		     struct ss_report_names *l)
{
	if (ss_names_opt_parse(set, id, arg, l))
		return -1;
	for (unsigned i = 0; i < l->n; i++)
		ss_model_canon(l->v[i]);
	return 0;
}
