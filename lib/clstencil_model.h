/* clstencil_model.h: public API of the device-model layer (included by clstencil.h). */
#ifndef CLSTENCIL_MODEL_H
#define CLSTENCIL_MODEL_H
#endif
